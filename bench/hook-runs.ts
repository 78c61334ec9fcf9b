import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { claudeCodeEvents, type RecordedSession } from '../electron/hooks/test-support/recorded-events';
import { summarize } from './harness';
import { cli } from './vigil-process';

// Whole `vigil hook claude-code` processes and the runs the hooks bench times with them.

/** One whole hook process, from spawn to exit, with the event on stdin; fails loudly on a wrong answer. */
export function hook(event: object, env: NodeJS.ProcessEnv): { readonly ms: number; readonly stdout: string } {
  const start = performance.now();
  const run = spawnSync(process.execPath, [cli, 'hook', 'claude-code'], {
    env,
    input: JSON.stringify(event),
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (run.status !== 0 || run.stderr !== '')
    throw new Error(`vigil hook failed (${String(run.status)}): ${run.stderr}`);
  return { ms, stdout: run.stdout };
}

export function nodeStart(env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return performance.now() - start;
}

/** PreToolUse (Bash, and the turn's first Write) after a one-file change, alternating with `node -e 0`. */
export function measureRelayed(
  session: RecordedSession,
  project: string,
  files: readonly string[],
  runs: number,
  env: NodeJS.ProcessEnv,
  writeEvery = 4,
) {
  const bash: number[] = [];
  const write: number[] = [];
  const node: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    appendFileSync(path.join(project, files[(run * 7919) % files.length] ?? ''), `change ${run}\n`);
    node.push(nodeStart(env));
    const before = hook(
      claudeCodeEvents.preTool(session, 'Bash', { command: `rm -f ${files[run] ?? ''}` }, `bash-${run}`),
      env,
    );
    if (before.stdout !== '') throw new Error(`unexpected answer to a Bash rm inside the workspace: ${before.stdout}`);
    bash.push(before.ms);
    if (run % writeEvery === 0) {
      // A new turn, so the Write is its first change there and checkpoints.
      hook(claudeCodeEvents.prompt(session, `turn ${run}`), env);
      appendFileSync(path.join(project, files[(run * 104_729) % files.length] ?? ''), `edit ${run}\n`);
      write.push(
        hook(
          claudeCodeEvents.preTool(
            session,
            'Write',
            { file_path: path.join(project, `new-${run}.txt`), content: 'x\n' },
            `write-${run}`,
          ),
          env,
        ).ms,
      );
    }
  }
  return { bash: summarize(bash), write: summarize(write), node: summarize(node) };
}

/** Medians and p99s of the relayed runs: Bash, Write and bare node start-up. */
export type Relayed = ReturnType<typeof measureRelayed>;

/** Starts the session on the resident core and lets it take its first checkpoint. */
export function warmUpCore(session: RecordedSession, env: NodeJS.ProcessEnv): void {
  hook(claudeCodeEvents.sessionStart(session), env);
  hook(claudeCodeEvents.prompt(session, 'warm up'), env);
  // The core's first checkpoint of the tree walks it and starts its watcher; after that it follows changes.
  hook(claudeCodeEvents.preTool(session, 'Bash', { command: 'rm -f warm-up.txt' }, 'warm-up'), env);
}

/** Stops the background core on `env`'s VIGIL_HOME, and fails loudly if one still runs after. */
export function stopBackgroundCore(env: NodeJS.ProcessEnv): void {
  spawnSync(process.execPath, [cli, 'core', 'stop'], { env });
  const status = spawnSync(process.execPath, [cli, 'core', 'status', '--json'], { env, encoding: 'utf8' });
  if (!status.stdout.includes('"state":"none"')) throw new Error(`the background core did not stop: ${status.stdout}`);
}
