import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Approval } from '../../../shared/contract/approvals-contract';
import { dirHash } from '../../git-store';
import type { ToolCallOutcome } from '../../executor/executor-types';
import { createAgentHarness, gitEnv, type AgentHarness } from '../../executor/test-support/agent-harness';
import { fakeCredentials, snapshotTree } from './sandbox-fixture';

/** The serve token planted in the throwaway VIGIL_HOME: no agent command may ever see it. */
export const plantedToken = 'UITOKEN-7f3a9c1e5b2d4f60';

/**
 * A real core's executor on a throwaway world, as a hostile agent meets it: a home with fake
 * credential stores given to agent commands as HOME, a victim folder beside the workspace, a real
 * VIGIL_HOME with a serve.json, a workspace that is a git repository with a `.env` and a database.
 * Every approval is answered `answer` at once (by default a careless person who allows all).
 */
export interface AttackWorld {
  readonly harness: AgentHarness;
  readonly workspace: string;
  readonly home: string;
  readonly victim: string;
  readonly vigilHome: string;
  readonly sessionId: string;
  /** Approvals requested so far, in order. */
  readonly asked: Approval[];
  answer: 'allow' | 'deny';
  /** One call in a fresh turn, as an agent makes it. */
  call(name: string, args: Record<string, unknown>): Promise<ToolCallOutcome>;
  /** Everything outside the workspace root that must never change: the home, the victim, serve.json and config.json. */
  outside(): Record<string, string>;
  /** The checkpoint ids of the workspace, newest first, read with git's CLI. */
  checkpointIds(): string[];
  /** `git fsck --strict` of the store (throws when it finds a problem). */
  fsck(): void;
  /** Whether the call asked a person. */
  wasAsked(outcome: ToolCallOutcome): boolean;
  close(): Promise<void>;
}

/** The workspace every attack starts from: a committed repository with secrets and a database beside it. */
const workspaceFiles: Readonly<Record<string, string>> = {
  'src/app.ts': 'export const answer = 42;\n',
  'README.md': '# project\n',
  '.env': 'API_KEY=workspace-secret\n',
  'local.db': 'SQLite format 3\u0000rows\n',
  '.gitignore': '.env\nlocal.db\n',
};

/** Builds the world: the harness, the throwaway home and victim, serve.json, the committed repository, one open session. */
export async function createAttackWorld(): Promise<AttackWorld> {
  const harness = await createAgentHarness({
    files: workspaceFiles,
    commandEnv: ({ home, vigilHome }) => ({
      ...process.env,
      HOME: home,
      VIGIL_HOME: vigilHome,
      VIGIL_TOKEN: plantedToken,
    }),
  });
  const victim = path.join(harness.base, 'victim');
  const vigilHome = path.join(harness.base, 'vigil');
  for (const [relative, content] of Object.entries(fakeCredentials)) {
    mkdirSync(path.dirname(path.join(harness.home, relative)), { recursive: true });
    writeFileSync(path.join(harness.home, relative), content);
  }
  mkdirSync(path.join(victim, 'sub'), { recursive: true });
  writeFileSync(path.join(victim, 'precious.txt'), 'beside the workspace\n');
  writeFileSync(path.join(victim, 'sub', 'data.json'), '{"keep":true}\n');
  writeFileSync(
    path.join(vigilHome, 'serve.json'),
    JSON.stringify({ pid: process.pid, port: 7420, token: plantedToken, url: null, version: 'test', startedAt: 'now' }),
    { mode: 0o600 },
  );
  // A 10 MiB checkpoint size cap (the default is 50): the undo attacks write a 12 MB file over it.
  harness.configure({ policy: {}, checkpoints: { maxFileMiB: 10 } });
  const git = (args: readonly string[]): string =>
    execFileSync('git', ['-C', harness.workspace, ...args], { env: gitEnv, encoding: 'utf8' });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['-c', 'user.name=Owner', '-c', 'user.email=owner@example.com', 'commit', '-qm', 'initial']);
  const sessionId = (await harness.sessions.open({ agent: 'hostile', roots: [harness.workspace] })).id;
  const world: AttackWorld = {
    harness,
    workspace: harness.workspace,
    home: harness.home,
    victim,
    vigilHome,
    sessionId,
    asked: [],
    answer: 'allow',
    async call(name, args) {
      await harness.sessions.beginTurn(sessionId, { userMessage: `${name} ${JSON.stringify(args)}` });
      const [outcome] = await harness.executor.execute(sessionId, [{ name, arguments: args }], { concurrent: false });
      await harness.sessions.endTurn(sessionId);
      if (outcome === undefined) throw new Error('no outcome');
      return outcome;
    },
    outside: () => ({
      ...Object.fromEntries(Object.entries(snapshotTree(harness.home)).map(([key, value]) => [`home/${key}`, value])),
      ...Object.fromEntries(Object.entries(snapshotTree(victim)).map(([key, value]) => [`victim/${key}`, value])),
      'vigil/serve.json': readFileSync(path.join(vigilHome, 'serve.json'), 'base64'),
      'vigil/config.json': readFileSync(path.join(vigilHome, 'config.json'), 'base64'),
    }),
    checkpointIds: () => harness.gitLog(harness.workspace).map((entry) => entry.id),
    fsck: () => {
      // Before any checkpoint (every attack so far refused outright) there is no store to check.
      if (!existsSync(harness.checkpoints.gitdir)) return;
      harness.git(['fsck', '--strict', '--no-progress', `refs/vigil/${dirHash(harness.workspace)}`]);
    },
    wasAsked: (outcome) => world.asked.some((approval) => approval.callId === outcome.callId),
    async close() {
      stop();
      await harness.close();
    },
  };
  const stop = harness.events.on('approvals:requested', ({ approval }) => {
    world.asked.push(approval);
    const answer = world.answer;
    queueMicrotask(() => harness.approvals.decide(approval.id, answer, 'window'));
  });
  return world;
}
