import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { settleBeside, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { createCollisionGuard, type FoundCollision } from './collision-guard';

/**
 * A collision's approval shows the file as it is now, read from a workspace the agent controls:
 * a FIFO put at the colliding file is never waited on (the approval would never be asked); the
 * approval then shows no diff for it.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-collision-live-'));
});
afterEach(async () => {
  await remove();
});

it.skipIf(process.platform === 'win32')('describes a collision on a FIFO at once, with no diff', async () => {
  const fifo = path.join(dir, 'a.txt');
  swapInFifo(fifo);
  const guard = createCollisionGuard({
    ledger: { view: () => Promise.reject(new Error('not asked in this test')) },
    sessions: {
      list: () => [],
      stateOf: () => {
        throw new Error('no loaded state in this test');
      },
    },
    settings: () => ({ collisions: 'ask', collisionMs: 60_000 }),
    logger: silentLogger,
  });
  const found: FoundCollision = {
    collision: {
      path: fifo,
      label: 'claude-code #1',
      otherSessionId: 'ses_b',
      otherLabel: 'claude-code #2',
      otherTurn: undefined,
      changedAt: 0,
    },
    mode: 'ask',
    displayPath: 'a.txt',
  };
  const outcome = await settleBeside(guard.describe(found, 'mine\n'), fifo);
  expect(outcome).toEqual({
    value: {
      path: fifo,
      displayPath: 'a.txt',
      label: 'claude-code #1',
      otherSessionId: 'ses_b',
      otherLabel: 'claude-code #2',
      changedAt: new Date(0).toISOString(),
    },
  });
});
