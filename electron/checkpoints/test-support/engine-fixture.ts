import path from 'node:path';
import { silentLogger } from '../../logging/logger';
import { useTempFixture } from '../../test-support/temp-fixture';
import { CheckpointService } from '../checkpoint-service';

/** A checkpoint engine with its own temp folder, for one test. */
export interface EngineFixture {
  /** The folder the test checkpoints (`<temp>/project`, not made yet). */
  readonly dir: string;
  /** An engine on its own store (`<temp>/home/checkpoints`), quiet, with the default settings. */
  readonly engine: CheckpointService;
}

/**
 * Registers hooks that give each test of the calling file a fresh engine and project folder in a
 * new temp folder named after `prefix`: after the test the engine is disposed and the folder removed.
 * The fields of what it returns are the current test's: read them inside a hook or a test.
 */
export function useCheckpointEngine(prefix: string): EngineFixture {
  const now = useTempFixture(
    prefix,
    (root): EngineFixture => ({
      dir: path.join(root, 'project'),
      engine: new CheckpointService({ root: path.join(root, 'home', 'checkpoints'), logger: silentLogger }),
    }),
    (fixture) => fixture.engine.dispose(),
  );
  return {
    get dir() {
      return now().dir;
    },
    get engine() {
      return now().engine;
    },
  };
}
