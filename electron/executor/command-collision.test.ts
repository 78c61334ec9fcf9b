import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../shared/contract/actor-model';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import { loadWriteLedger, type WriteLedger } from '../checkpoints';
import { readFileIdentity } from '../files/file-identity';
import { silentLogger } from '../logging/logger';
import { createCollisionGuard, type CollisionGuard } from './collision-guard';
import type { CollisionMode } from './collision-rule';

const { createWriteLedger } = await loadWriteLedger();

/** Issue 33, item 1: after a terminal command ran, the files it changed are checked with the collision rule. */
let dir: string;
let file: string;
let ledger: WriteLedger;
let settings: { collisions: CollisionMode; collisionMs: number };
let openTurn: boolean;

const session = (id: string, isTurnOpen: boolean): SessionSummary =>
  ({
    id,
    agent: 'claude-code',
    status: 'working',
    currentTurn: 1,
    isTurnOpen,
    createdAt: id === 'ses_a' ? '2026-01-01T00:00:00.000Z' : '2026-01-01T00:00:01.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
  }) as SessionSummary;

const actorOf = (sessionId: string, tool: string): Actor => ({
  kind: 'session',
  sessionId,
  agent: 'claude-code',
  turn: 1,
  tool,
});

function guard(): CollisionGuard {
  return createCollisionGuard({
    ledger,
    sessions: {
      list: () => [session('ses_a', openTurn), session('ses_b', true)],
      stateOf: () => {
        throw new Error('no loaded state in this test');
      },
    },
    settings: () => settings,
    logger: silentLogger,
  });
}

/** Session B's command overwrites the file: the collisions found after it, from the ledger taken before it. */
async function commandByB(): Promise<readonly { otherLabel: string; displayPath: string }[] | undefined> {
  const checking = guard();
  const before = await checking.ledgerBefore();
  const identity = await readFileIdentity(file);
  await writeFile(file, 'from b\n');
  await ledger.recordObserved([{ path: file, identity: await readFileIdentity(file) }], actorOf('ses_b', 'terminal'));
  return before === undefined
    ? undefined
    : checking.afterCommand('ses_b', before, [{ path: file, before: identity }], [dir]);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vigil-command-collision-'));
  file = path.join(dir, 'app.ts');
  ledger = createWriteLedger(path.join(dir, '.ledger', 'writes.jsonl'));
  settings = { collisions: 'ask', collisionMs: 60_000 };
  openTurn = true;
  await writeFile(file, 'from a\n');
  await ledger.record([file], actorOf('ses_a', 'write_file'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the collision check after a terminal command', () => {
  it('names the file and the other session whose recent change it overwrote', async () => {
    expect(await commandByB()).toEqual([
      expect.objectContaining({
        path: file,
        displayPath: 'app.ts',
        otherSessionId: 'ses_a',
        otherLabel: 'claude-code #1',
      }),
    ]);
  });

  it('does not count the command’s own session’s earlier writes, nor its own writes', async () => {
    await writeFile(file, 'b first\n');
    await ledger.record([file], actorOf('ses_b', 'write_file'));
    expect(await commandByB()).toEqual([]);
    // A second command of B over its own command's version is no collision either.
    expect(await commandByB()).toEqual([]);
  });

  it('counts a change outside the other’s open turn only within sessions.collisionMinutes', async () => {
    openTurn = false;
    // A window that ended before the change (no clock involved): A's change is outside it.
    settings = { collisions: 'warn', collisionMs: -1 };
    expect(await commandByB()).toEqual([]);
    await writeFile(file, 'from a again\n');
    await ledger.record([file], actorOf('ses_a', 'write_file'));
    settings = { collisions: 'warn', collisionMs: 60_000 };
    expect(await commandByB()).toHaveLength(1);
  });

  it('with sessions.collisions "off" there is nothing to check', async () => {
    settings = { collisions: 'off', collisionMs: 60_000 };
    expect(await commandByB()).toBeUndefined();
  });
});
