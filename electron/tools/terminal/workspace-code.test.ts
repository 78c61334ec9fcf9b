import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';

/**
 * Issue 30, H3: commands that look read-only but run code from workspace files. Each runs through
 * the real executor and the real OS sandbox; the planted code deletes uncommitted work, and the
 * checkpoint taken before the command brings it back.
 */

const work = 'uncommitted work\n';
const eraser = '#!/bin/sh\nrm -f keep.txt\n';

/** Whether a C compiler is here to build a shared library for `LD_PRELOAD`. */
const hasCompiler = ((): boolean => {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Runs one command as an agent's first call of a turn; returns the outcome. */
async function runInTurn(active: AgentHarness, command: string) {
  const sessionId = (await active.sessions.open({ agent: 'h3', roots: [active.workspace] })).id;
  await active.sessions.beginTurn(sessionId, { userMessage: 'look around' });
  const [outcome] = await active.executor.execute(sessionId, [{ name: 'terminal', arguments: { command } }], {
    concurrent: false,
  });
  await active.sessions.endTurn(sessionId);
  return { sessionId, outcome };
}

/** The checkpoint's `keep.txt`, read with git's own CLI from the store. */
function checkpointedKeep(active: AgentHarness, checkpointId: string): string {
  return active.contentOf(checkpointId, 'keep.txt');
}

const cases: readonly {
  readonly name: string;
  readonly command: string;
  readonly files: Readonly<Record<string, string>>;
  readonly executable?: readonly string[];
}[] = [
  { name: 'a script on sh', command: 'sh < script.sh', files: { 'script.sh': 'rm -f keep.txt\n' } },
  { name: 'a script on bash', command: 'bash < script.sh', files: { 'script.sh': 'rm -f keep.txt\n' } },
  { name: 'a script on sh -s', command: 'sh -s < script.sh', files: { 'script.sh': 'rm -f keep.txt\n' } },
  { name: 'a workspace grep', command: './grep foo', files: { grep: eraser }, executable: ['grep'] },
  {
    name: 'a program by relative path',
    command: 'bin/cat notes.txt',
    files: { 'bin/cat': eraser },
    executable: ['bin/cat'],
  },
  { name: 'the workspace first on PATH', command: 'PATH=.:$PATH ls', files: { ls: eraser }, executable: ['ls'] },
  { name: 'BASH_ENV', command: 'BASH_ENV=./x bash -c true', files: { x: 'rm -f keep.txt\n' } },
];

describe('code from the workspace is a possible writer (issue 30, H3)', () => {
  it.each(cases)('$name ($command): checkpointed before it runs, and the lost work comes back', async (item) => {
    const active = await createAgentHarness({ files: { 'keep.txt': work, 'notes.txt': 'n\n', ...item.files } });
    harness = active;
    for (const file of item.executable ?? []) chmodSync(path.join(active.workspace, file), 0o755);
    await expectRestorable(active, item.command);
  });

  it.skipIf(!hasCompiler)(
    'LD_PRELOAD=./x.so ls: checkpointed before it runs, and the lost work comes back',
    async () => {
      const active = await createAgentHarness({
        files: {
          'keep.txt': work,
          'x.c': '#include <unistd.h>\n__attribute__((constructor)) static void erase(void) { unlink("keep.txt"); }\n',
        },
      });
      harness = active;
      execFileSync('cc', ['-shared', '-fPIC', '-o', 'x.so', 'x.c'], { cwd: active.workspace });
      await expectRestorable(active, 'LD_PRELOAD=./x.so ls');
    },
  );

  it('a truly read-only command still takes no checkpoint', async () => {
    const active = await createAgentHarness({ files: { 'keep.txt': work } });
    harness = active;
    const { outcome } = await runInTurn(active, 'ls && /bin/cat keep.txt');
    expect(outcome).toMatchObject({ decision: 'allowed', result: { ok: true } });
    expect(outcome?.checkpoints).toEqual([]);
  });
});

/** Runs the command; its planted code removes keep.txt; the checkpoint before it holds keep.txt; a turn undo restores it. */
async function expectRestorable(active: AgentHarness, command: string): Promise<void> {
  const { sessionId, outcome } = await runInTurn(active, command);
  expect(outcome).toMatchObject({ decision: 'allowed', result: { ok: true } });
  // The planted code really ran (in the sandbox): the work is gone.
  expect(existsSync(path.join(active.workspace, 'keep.txt'))).toBe(false);
  const checkpoint = outcome?.checkpoints[0];
  expect(checkpoint).toMatchObject({ directory: active.workspace, kind: 'created' });
  expect(checkpointedKeep(active, checkpoint?.checkpointId ?? '')).toBe(work);
  const subjects = active.gitLog(active.workspace).map((entry) => entry.subject);
  expect(subjects).toEqual([`before terminal: ${command}`]);
  const plan = await active.sessions.planRewind(sessionId, 1, 'code');
  await active.sessions.rewind(sessionId, 1, 'code', { planId: plan.planId });
  expect(readFileSync(path.join(active.workspace, 'keep.txt'), 'utf8')).toBe(work);
}
