import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../../shared/errors';
import type { ToolOutput } from '../../../shared/tools/tool-registry';
import { CappedOutput } from './capped-output';
import { killProcessTree } from './kill-process-tree';
import { platformShell } from './platform-shell';

/** How long output is still collected after the shell exits, when a background process holds its pipes. */
const pipeGraceMs = 250;

/** What to run and how. */
export interface TerminalRun {
  readonly command: string;
  /** The resolved working directory (already confined by the caller). */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  readonly outputCapBytes: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Stops the command early (the core is shutting down). */
  readonly signal?: AbortSignal;
  /** The program that runs the command instead of the platform's shell (the OS sandbox's command line). */
  readonly launch?: { readonly file: string; readonly args: readonly string[] };
  /** Told the command's process id once it started (on POSIX, the id of its process group too). */
  readonly onSpawned?: (pid: number) => void;
}

/** The result of the `terminal` tool. */
export type TerminalResult = ToolOutput<'terminal'>;

/**
 * Runs one command line with the platform's shell: stdin empty, stdout and stderr captured up to a
 * cap (beginning and end kept), and the whole process tree killed when the timeout passes or the
 * signal aborts. A command that cannot start (missing cwd, no shell) is an `io_error`; a command
 * that fails is a result with its exit code.
 */
export function runTerminalCommand(run: TerminalRun): Promise<TerminalResult> {
  const shell = run.launch === undefined ? platformShell(run.command) : { ...run.launch, isVerbatim: false };
  const started = performance.now();
  const child = spawn(shell.file, [...shell.args], {
    cwd: run.cwd,
    env: run.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
    windowsVerbatimArguments: shell.isVerbatim,
  });
  const stdout = new CappedOutput(run.outputCapBytes);
  const stderr = new CappedOutput(run.outputCapBytes);
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  let isTimedOut = false;
  const stop = (): void => killProcessTree(child);
  const timer = setTimeout(() => {
    isTimedOut = true;
    stop();
  }, run.timeoutMs);
  run.signal?.addEventListener('abort', stop, { once: true });
  if (run.signal?.aborted === true) stop();
  if (child.pid !== undefined) run.onSpawned?.(child.pid);

  return new Promise((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', stop);
      reject(
        new AppError(
          'io_error',
          `The command could not be started in ${run.cwd}: ${error.message}. Check that the folder exists and a shell is available.`,
          { cwd: run.cwd, errno: error.code },
        ),
      );
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      run.signal?.removeEventListener('abort', stop);
      resolve({
        exit_code: code,
        signal,
        timed_out: isTimedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdout_dropped_bytes: stdout.droppedBytes,
        stderr_dropped_bytes: stderr.droppedBytes,
        cwd: run.cwd,
        duration_ms: Math.round(performance.now() - started),
      });
    };
    let drainTimer: NodeJS.Timeout | undefined;
    // 'close' comes once the pipes are drained. A process the command left running in the
    // background (`server &`) may hold them open for ever: after the shell exits, its output is
    // collected for a short grace period, then the pipes are let go and the process keeps running.
    child.once('exit', (code, signal) => {
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, pipeGraceMs);
    });
    child.once('close', (code, signal) => finish(code, signal));
  });
}
