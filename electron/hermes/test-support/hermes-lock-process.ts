import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The Python script that locks memory exactly as Hermes Agent does (fcntl.flock on the `.lock` sidecar). */
export const hermesLockScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hermes_memory_lock.py');

/** A child process that speaks in lines. */
export interface LineProcess {
  /** The next line it prints (rejects if it exits first). */
  next(): Promise<string>;
  send(line: string): void;
  readonly exited: Promise<number | null>;
  readonly pid: number | undefined;
}

/** Starts a process and reads its stdout line by line. */
export function startLineProcess(command: string, args: readonly string[]): LineProcess {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const queued: string[] = [];
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let stderr = '';
  let isDone = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) queued.push(line);
    else waiter.resolve(line);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      isDone = true;
      for (const waiter of waiting.splice(0))
        waiter.reject(new Error(`${command} exited (${String(code)}) before printing a line: ${stderr}`));
      resolve(code);
    });
  });
  return {
    next: () => {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (isDone) return Promise.reject(new Error(`${command} has exited: ${stderr}`));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
    pid: child.pid,
  };
}

/** Runs the Hermes locking script (`hold`, `try`, `wait` or `rmw`, see the script). */
export function startHermesLock(
  mode: 'hold' | 'try' | 'wait' | 'rmw',
  lockPath: string,
  ...rest: string[]
): LineProcess {
  return startLineProcess('python3', [hermesLockScript, mode, lockPath, ...rest]);
}
