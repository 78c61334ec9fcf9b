import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HistoryToolCall, SessionHistory } from '../../../shared/contract/sessions-contract';
import type { HookAgent } from '../../../shared/hooks/hook-event';
import { runVigil, spawnVigil, type VigilRun } from '../../test-support/run-vigil';

/** Runs `vigil hook AGENT` as the agent does: a real process, the event as JSON on stdin. */
export function runHook(
  agent: HookAgent,
  event: object | string,
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
): Promise<VigilRun> {
  return runVigil(['hook', agent, ...extra], { env, input: typeof event === 'string' ? event : JSON.stringify(event) });
}

/** The one JSON document a hook printed (undefined when it printed nothing). */
export function printed(run: VigilRun): Record<string, unknown> | undefined {
  const text = run.stdout.trim();
  return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** A session's history, as `vigil sessions show ID --json` prints it. */
export async function sessionHistory(sessionId: string, env: NodeJS.ProcessEnv): Promise<SessionHistory> {
  const run = await runVigil(['sessions', 'show', sessionId, '--json'], { env });
  if (run.code !== 0) throw new Error(`vigil sessions show failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as SessionHistory;
}

/** Every tool call of a history, in order. */
export function callsOf(history: SessionHistory): HistoryToolCall[] {
  return history.turns.flatMap((turn) =>
    turn.entries.filter((entry): entry is HistoryToolCall => entry.kind === 'tool-call'),
  );
}

/** git's own view of a directory's timeline in the store: `subject|Vigil-Session trailer|commit`, newest first. */
export async function gitTimeline(
  home: string,
  dir: string,
): Promise<{ readonly subject: string; readonly session: string; readonly id: string }[]> {
  const ref = `refs/vigil/${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16)}`;
  const { stdout } = await promisify(execFile)('git', [
    '--git-dir',
    path.join(home, 'checkpoints/store'),
    'log',
    '--format=%s|%(trailers:key=Vigil-Session,valueonly,separator=)|%H',
    ref,
  ]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [subject = '', session = '', id = ''] = line.split('|');
      return { subject, session: session.trim(), id };
    });
}

/** The files a checkpoint holds, by git's own `ls-tree`. */
export async function gitFiles(home: string, commit: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('git', [
    '--git-dir',
    path.join(home, 'checkpoints/store'),
    'ls-tree',
    '-r',
    '--name-only',
    commit,
  ]);
  return stdout.trim().split('\n');
}

/** Starts a real `vigil serve` (from source) on a data folder; resolves once it serves. */
export async function startServe(env: NodeJS.ProcessEnv): Promise<{ readonly stop: () => Promise<void> }> {
  const child = spawnVigil(['serve', '--port', '0'], { env });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/^url: /m.test(output)) resolve();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}): ${output}`)));
  });
  return {
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
