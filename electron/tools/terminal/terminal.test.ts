import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolInput } from '../../../shared/tools/tool-registry';
import { defaultCheckpointLimits } from '../../executor/execution-session';
import { LockTable } from '../../executor/lock-table';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';
import { silentLogger } from '../../logging/logger';
import { CommandSandbox, defaultSandboxSettings } from '../../sandbox/sandbox-api';
import { makeTempDir } from '../../test-support/temp-dir';
import { pathLockKey, rootLockKey, type ExecutionSession, type PreparedCall } from '../tool-adapter';
import { prepareWriteFile } from '../write-file/prepare';
import { prepareTerminal } from './prepare';

/** Resolves after every queued microtask and I/O callback has run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

let terminalAdapter: { prepare(args: ToolInput<'terminal'>, session: ExecutionSession): Promise<PreparedCall> };

async function workspaceSession(id: string): Promise<ExecutionSession> {
  const { dir, remove } = await makeTempDir('vigil-terminal-');
  const workspace = path.join(dir, 'ws');
  mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  mkdirSync(path.join(dir, 'home'));
  const sandbox = new CommandSandbox({
    vigilHome: path.join(dir, 'vigil'),
    home: path.join(dir, 'home'),
    settings: () => Promise.resolve(defaultSandboxSettings),
    logger: silentLogger,
    tempRoot: path.join(dir, 'tmp'),
  });
  cleanups.push(async () => {
    await sandbox.dispose();
    await remove();
  });
  terminalAdapter = { prepare: (args, session) => prepareTerminal(args, session, sandbox) };
  return {
    id,
    agent: 'test',
    roots: [workspace],
    cwd: workspace,
    turn: 1,
    workspace: { cwd: workspace, roots: [workspace], homeDir: path.join(dir, 'home'), protectedPaths: [] },
    checkpointLimits: defaultCheckpointLimits,
  };
}

describe('terminal locks', () => {
  it("makes a command that may change anything in its root hold the root alone, so another session's write waits for it", async () => {
    const session = await workspaceSession('ses_a');
    const root = session.roots[0] ?? '';
    const opaque = await terminalAdapter.prepare({ command: 'python3 -c "print(1)"' }, session);
    expect(opaque.locks).toContainEqual({ key: rootLockKey(root), mode: 'write' });
    const write = await prepareWriteFile({ path: 'a.txt', content: 'x' }, { ...session, id: 'ses_b' });
    // A write hold and a read hold of one key never overlap (lock-table.test.ts): the write waits.
    expect(write.locks).toContainEqual({ key: rootLockKey(root), mode: 'read' });
  });

  it('lets a command with known targets share the root with writes elsewhere in it, holding only its paths', async () => {
    const session = await workspaceSession('ses_a');
    const root = session.roots[0] ?? '';
    const named = await terminalAdapter.prepare({ command: 'cd sub && rm -f old.txt' }, session);
    expect(named.locks).toEqual([
      { key: 'terminal:ses_a', mode: 'write' },
      { key: rootLockKey(root), mode: 'read' },
      { key: pathLockKey(path.join(root, 'sub', 'old.txt')), mode: 'write' },
    ]);
    const write = await prepareWriteFile({ path: 'a.txt', content: 'x' }, { ...session, id: 'ses_b' });
    const table = new LockTable();
    const releaseCommand = await table.acquire(named.locks);
    let isWriting = false;
    const writing = table.acquire(write.locks).then((release) => {
      isWriting = true;
      return release;
    });
    await settle();
    expect(isWriting).toBe(true);
    (await writing)();
    releaseCommand();
    expect((await terminalAdapter.prepare({ command: 'ls -la' }, session)).locks).toEqual([
      { key: 'terminal:ses_a', mode: 'write' },
    ]);
  });

  it('runs commands with CDPATH unset, so cd goes where the policy followed it', async () => {
    const session = await workspaceSession('ses_a');
    const root = session.roots[0] ?? '';
    const elsewhere = path.join(path.dirname(root), 'elsewhere');
    mkdirSync(path.join(elsewhere, 'sub'), { recursive: true });
    const saved = process.env['CDPATH'];
    process.env['CDPATH'] = elsewhere;
    try {
      const prepared = await terminalAdapter.prepare({ command: 'cd sub && pwd' }, session);
      const output = (await prepared.run({ signal: new AbortController().signal })) as { stdout: string };
      expect(output.stdout.trim()).toBe(path.join(root, 'sub'));
    } finally {
      if (saved === undefined) delete process.env['CDPATH'];
      else process.env['CDPATH'] = saved;
    }
  });
});

describe('turn undo of terminal commands', () => {
  let harness: AgentHarness;
  afterEach(async () => {
    await harness.close();
  });

  it('restores appends, deletes created files and brings back what was removed after cd', async () => {
    harness = await createAgentHarness({
      files: { 'log.txt': 'one\n', 'secrets/key.pem': 'KEY\n', 'keep.txt': 'keep\n' },
    });
    const sessionId = (await harness.sessions.open({ agent: 'undo', roots: [harness.workspace] })).id;
    await harness.sessions.beginTurn(sessionId, { userMessage: 'go' });
    const [outcome] = await harness.executor.execute(
      sessionId,
      [
        {
          name: 'terminal',
          arguments: { command: 'echo two >> log.txt && touch made.txt && cd secrets && rm key.pem' },
        },
      ],
      { concurrent: false },
    );
    expect(outcome).toMatchObject({ decision: 'allowed', result: { ok: true } });
    expect(outcome?.checkpoints).toHaveLength(1);
    await harness.sessions.endTurn(sessionId);

    const plan = await harness.sessions.planRewind(sessionId, 1, 'code');
    const files = Object.fromEntries((plan.directories[0]?.files ?? []).map((entry) => [entry.path, entry.action]));
    expect(files).toEqual({ 'log.txt': 'restore', 'made.txt': 'delete', 'secrets/key.pem': 'recreate' });
    await harness.sessions.rewind(sessionId, 1, 'code', { planId: plan.planId });
    const read = (relative: string): string | undefined =>
      existsSync(path.join(harness.workspace, relative))
        ? readFileSync(path.join(harness.workspace, relative), 'utf8')
        : undefined;
    expect([read('log.txt'), read('made.txt'), read('secrets/key.pem'), read('keep.txt')]).toEqual([
      'one\n',
      undefined,
      'KEY\n',
      'keep\n',
    ]);
  });
});

describe('where the OS sandbox cannot start', () => {
  let harness: AgentHarness;
  afterEach(async () => {
    await harness.close();
  });

  it('asks a person about every command, even one an allow rule covers, saying why and what fixes it; allowed, it runs without Vigil variables', async () => {
    harness = await createAgentHarness({
      commandEnv: ({ home, vigilHome }) => ({ ...process.env, HOME: home, VIGIL_HOME: vigilHome }),
    });
    harness.configure({
      policy: {
        rules: [{ effect: 'allow', tool: 'terminal', command: 'echo *' }],
        sandbox: { bwrapPath: path.join(harness.base, 'missing-bwrap') },
      },
    });
    const reasons: string[] = [];
    const stop = harness.events.on('approvals:requested', ({ approval }) => {
      reasons.push(approval.reason);
      queueMicrotask(() => harness.approvals.decide(approval.id, 'allow', 'window'));
    });
    const sessionId = (await harness.sessions.open({ agent: 'unsandboxed', roots: [harness.workspace] })).id;
    const [outcome] = await harness.executor.execute(
      sessionId,
      [{ name: 'terminal', arguments: { command: 'echo "home=$HOME vigil=${VIGIL_HOME:-none}"' } }],
      { concurrent: false },
    );
    stop();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('agent commands cannot run in the OS sandbox');
    expect(reasons[0]).toContain('missing-bwrap');
    expect(reasons[0]).toMatch(/install bubblewrap \(sudo [a-z-]+ install/u);
    expect(outcome).toMatchObject({
      decision: 'asked-allowed',
      result: { ok: true, value: { stdout: `home=${harness.home} vigil=none\n` } },
    });
  });
});
