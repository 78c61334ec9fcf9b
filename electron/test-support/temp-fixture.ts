import { afterEach, beforeEach } from 'vitest';
import { makeTempDir } from './temp-dir';

/**
 * Registers hooks that give each test of the calling file a fixture made by `make` in a fresh temp
 * folder named after `prefix`: after the test, `dispose` (if given) releases it and the folder is
 * removed. The returned function reads the current test's fixture: call it inside a hook or a test.
 */
export function useTempFixture<T>(
  prefix: string,
  make: (dir: string) => T | Promise<T>,
  dispose?: (fixture: T) => Promise<void>,
): () => T {
  let current: { readonly fixture: T } | undefined;
  let remove: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const temp = await makeTempDir(prefix);
    remove = temp.remove;
    current = { fixture: await make(temp.dir) };
  });
  afterEach(async () => {
    const ended = current;
    current = undefined;
    try {
      if (ended !== undefined) await dispose?.(ended.fixture);
    } finally {
      await remove?.();
    }
  });
  return () => {
    if (current === undefined) throw new Error(`the ${prefix} fixture is read outside a test`);
    return current.fixture;
  };
}
