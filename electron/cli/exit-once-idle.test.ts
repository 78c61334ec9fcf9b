import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { childEnv, tsxLoader } from '../test-support/run-vigil';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'exit-once-idle.child.ts');

describe('exitOnceIdle', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-exit-once-idle-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('exits with the code set once nothing is left to do: pending writes finish, nothing runs after', async () => {
    const file = path.join(dir, 'written');
    const proc = spawn(process.execPath, ['--import', tsxLoader, child, file], { env: childEnv(), stdio: 'pipe' });
    let stdout = '';
    proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
    expect({ code, stdout }).toEqual({ code: 3, stdout: 'exit 3\n' });
    expect(statSync(file).size).toBe(1_000_000);
    // Node's own end would have emitted `beforeExit` to the later listener too, and gone on.
    expect(existsSync(`${file}.later`)).toBe(false);
  });
});
