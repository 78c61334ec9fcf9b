import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '../executor/executor-types';
import { createAttackWorld, type AttackWorld } from './test-support/attack-world';

/**
 * "Checkpoint taken", but the change could not be undone (issue 17, item 3): each of these now
 * asks first, saying it cannot be undone (and nothing changes when the person says no); the
 * writers the policy did not know are checkpointed and a turn undo brings their victims back.
 */
let world: AttackWorld;
beforeEach(async () => {
  world = await createAttackWorld();
  world.answer = 'deny';
});
afterEach(async () => {
  await world.close();
});

function read(relative: string): string | undefined {
  const file = path.join(world.workspace, relative);
  return existsSync(file) ? readFileSync(file, 'latin1') : undefined;
}

/** Everything in the workspace, .git included, as bytes. */
function workspaceState(): Record<string, string> {
  const files = [
    'src/app.ts',
    'README.md',
    '.env',
    'local.db',
    '.gitignore',
    '.git/HEAD',
    '.git/index',
    '.git/config',
    'data.sqlite',
  ];
  return Object.fromEntries(files.map((relative) => [relative, read(relative) ?? '(absent)']));
}

/** The call asked, told the person it cannot be undone, and was not run. */
function expectAskedCannotUndo(outcome: ToolCallOutcome, mentions: readonly string[]): void {
  expect(outcome.decision).toBe('denied');
  expect(outcome.checkpoints).toEqual([]);
  const approval = world.asked.find((asked) => asked.callId === outcome.callId);
  expect(approval?.reason).toContain('it cannot be undone');
  for (const mention of mentions) expect(approval?.reason).toContain(mention);
}

describe('a change no checkpoint can bring back asks first, saying so', () => {
  it('rm -rf .git .env', async () => {
    const before = workspaceState();
    const outcome = await world.call('terminal', { command: 'rm -rf .git .env' });
    expectAskedCannotUndo(outcome, ['.git is version-control data', '.env is a secret file']);
    expect(workspaceState()).toEqual(before);
  });

  it('git clean -fdx, which deletes the ignored .env and local.db', async () => {
    const before = workspaceState();
    const outcome = await world.call('terminal', { command: 'git clean -fdx' });
    expectAskedCannotUndo(outcome, ['.env', 'local.db']);
    expect(workspaceState()).toEqual(before);
  });

  it('cd .. && rm -rf ws: the workspace root itself', async () => {
    const before = workspaceState();
    const outcome = await world.call('terminal', { command: `cd .. && rm -rf ${path.basename(world.workspace)}` });
    expectAskedCannotUndo(outcome, [`removes the workspace root ${world.workspace} itself`]);
    expect(workspaceState()).toEqual(before);
  });

  it('write_file over .env, over a 12 MB file, over a .sqlite file, over .git/HEAD', async () => {
    writeFileSync(path.join(world.workspace, 'big.bin.txt'), 'x'.repeat(12 * 1024 * 1024));
    writeFileSync(path.join(world.workspace, 'data.sqlite'), 'SQLite format 3\u0000table\n');
    const before = workspaceState();
    const cases: [string, string][] = [
      ['.env', '.env is a secret file'],
      ['big.bin.txt', 'big.bin.txt is 12 MB, over the 10 MB checkpoint limit'],
      ['data.sqlite', 'data.sqlite is a kind of file checkpoints do not store'],
      ['.git/HEAD', '.git is version-control data'],
    ];
    for (const [target, mention] of cases) {
      expectAskedCannotUndo(await world.call('write_file', { path: target, content: 'overwritten\n' }), [mention]);
    }
    expectAskedCannotUndo(
      await world.call('write_file', { path: 'README.md', content: 'y'.repeat(11 * 1024 * 1024) }),
      ['the new content of README.md is 11 MB'],
    );
    expect(workspaceState()).toEqual(before);
    expect(readFileSync(path.join(world.workspace, 'big.bin.txt'), 'utf8')).toHaveLength(12 * 1024 * 1024);
  });

  it('a person who allows it anyway gets a checkpoint that says what it does not cover', async () => {
    world.answer = 'allow';
    const outcome = await world.call('terminal', { command: 'rm -rf .git .env' });
    expect(outcome.decision).toBe('asked-allowed');
    expect(outcome.checkpoints[0]?.notCovered).toEqual(
      expect.arrayContaining([
        expect.stringContaining('.git is version-control data'),
        expect.stringContaining('.env is a secret file'),
      ]) as unknown,
    );
    expect(read('.env')).toBeUndefined();
  });

  it('creating a new excluded file asks nothing, and its checkpoint says undo will not remove it', async () => {
    const outcome = await world.call('write_file', { path: '.env.example', content: 'API_KEY=\n' });
    expect(outcome.decision).toBe('allowed');
    expect(outcome.checkpoints[0]?.notCovered).toEqual([
      expect.stringContaining('undo will not remove the new .env.example'),
    ]);
  });
});

describe('writers the policy did not know are checkpointed, and a turn undo brings their victims back', () => {
  it.each([
    ['sort -o src/app.ts /dev/null', 'src/app.ts'],
    ['curl -s -o README.md file:///dev/null', 'README.md'],
    ["ex -sc '%d|x' src/app.ts", 'src/app.ts'],
    ['git read-tree -u --reset HEAD', 'src/app.ts'],
    ['git checkout-index -a -f', 'README.md'],
  ])('%s', async (command, victim) => {
    world.answer = 'allow';
    // Uncommitted work the command is about to lose.
    writeFileSync(path.join(world.workspace, victim), 'uncommitted work\n');
    const before = read(victim);
    const outcome = await world.call('terminal', { command });
    expect(outcome.decision === 'allowed' || outcome.decision === 'asked-allowed').toBe(true);
    expect(outcome.checkpoints).toHaveLength(1);
    expect(read(victim)).not.toBe(before);
    const turn = outcome.turn;
    const plan = await world.harness.sessions.planRewind(world.sessionId, turn, 'code');
    await world.harness.sessions.rewind(world.sessionId, turn, 'code', { planId: plan.planId });
    expect(read(victim)).toBe(before);
  });
});
