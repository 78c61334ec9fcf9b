import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../run-vigil';

/** The real agent binaries, as installed from npm (devDependencies). */
export const agentBinaries = {
  claude: path.join(repoRoot, 'node_modules/.bin/claude'),
  gemini: path.join(repoRoot, 'node_modules/.bin/gemini'),
  codex: path.join(repoRoot, 'node_modules/.bin/codex'),
} as const;

/** What a finished agent printed and returned. */
export interface AgentRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run an agent: its folder and environment; what it reads on stdin. */
export interface AgentRunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to stdin; stdin is closed after it unless `converse` is given. */
  readonly input?: string;
  /**
   * Reads each line the agent prints on stdout while stdin stays open: returns lines to write back
   * (an answer to its permission prompt; a promise of them holds the agent there until it settles),
   * and `isDone` to close stdin. Replies and the close go out in the order of the lines they answer.
   */
  readonly converse?: (line: string) => {
    readonly reply?: readonly string[] | Promise<readonly string[]>;
    readonly isDone?: boolean;
  };
  readonly timeoutMs?: number;
}

/** Runs an agent binary to completion. Its environment is only what is given, plus PATH. */
export function runAgent(binary: string, args: readonly string[], options: AgentRunOptions): Promise<AgentRun> {
  const child = spawn(binary, args, {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'], LANG: 'C.UTF-8', TERM: 'dumb', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  let answering: Promise<void> = Promise.resolve();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (options.converse === undefined) return;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const turn = options.converse(line);
      answering = answering
        .then(async () => {
          for (const reply of await (turn.reply ?? [])) if (child.stdin.writable) child.stdin.write(`${reply}\n`);
          if (turn.isDone === true) child.stdin.end();
        })
        .catch(() => {
          // A held answer that failed (the test failed first): the agent is not left waiting for it.
          child.kill('SIGKILL');
        });
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.converse === undefined) child.stdin.end(options.input ?? '');
  else child.stdin.write(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Why an agent binary cannot run here (not installed, not executable), or undefined when it can. */
export async function whyAgentCannotRun(binary: string): Promise<string | undefined> {
  const isThere = await access(binary, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!isThere)
    return `${binary} is not installed: run npm install (it is a devDependency) to test with the real agent`;
  const probe = await runAgent(binary, ['--version'], { cwd: repoRoot, env: {}, timeoutMs: 60_000 }).catch(
    (error: unknown) => ({ code: -1, stdout: '', stderr: String(error) }),
  );
  return probe.code === 0
    ? undefined
    : `${binary} --version failed (${String(probe.code)}): ${probe.stderr.trim().slice(0, 300)}`;
}
