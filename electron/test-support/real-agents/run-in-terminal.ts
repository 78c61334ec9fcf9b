import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import type { AgentRun } from './run-agent';

/**
 * A relay in Python's `pty` module: it starts the program on a new pseudo-terminal of 120×40, so
 * that the program sees a terminal on its input and output (as a person's shell gives it), copies
 * what the program draws to stdout and what arrives on stdin to the program as keystrokes. When its
 * stdin ends (the test has gone), the terminal hangs up: the program gets SIGHUP.
 */
const relay = `
import os, pty, sys, select, fcntl, termios, struct, signal
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))
keys, keys_open = sys.stdin.fileno(), True
while True:
    ready, _, _ = select.select([fd] + ([keys] if keys_open else []), [], [])
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if keys_open and keys in ready:
        data = os.read(keys, 65536)
        if data:
            os.write(fd, data)
        else:
            os.kill(pid, signal.SIGHUP)
            keys_open = False
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

/**
 * One scripted keystroke: typed once `when` appears in what the program drew after the previous
 * step's match. A function of keys holds the program there until its promise settles.
 */
export interface TerminalStep {
  readonly when: RegExp;
  readonly keys: string | (() => Promise<string>);
}

/** How to run a program in a terminal: its folder, environment and the keystrokes that answer it. */
export interface TerminalRunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly steps: readonly TerminalStep[];
  readonly timeoutMs?: number;
}

/** What a program run in a terminal drew (escape sequences removed), its exit code, and how many steps were taken. */
export interface TerminalRun extends AgentRun {
  readonly stepsTaken: number;
}

/** Whether Python 3 (which lends the pseudo-terminal) runs here; the reason when it does not. */
export function whyNoTerminal(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = spawn('python3', ['-c', 'import pty, termios'], {
      stdio: 'ignore',
      env: { PATH: process.env['PATH'] },
    });
    probe.on('error', (error) =>
      resolve(`python3 cannot run (${error.message}): install Python 3 to test in a terminal`),
    );
    probe.on('close', (code) => resolve(code === 0 ? undefined : `python3 has no pty module (exit ${String(code)})`));
  });
}

/**
 * Runs `binary` on a pseudo-terminal (Python's `pty`) and answers it as a person would: each step's
 * keys are typed, in order, once its text appears on the screen. Its stdout is the screen's text.
 * The program is killed after `timeoutMs` (default 120 s) if it has not ended.
 */
export function runInTerminal(
  binary: string,
  args: readonly string[],
  options: TerminalRunOptions,
): Promise<TerminalRun> {
  const child = spawn('python3', ['-c', relay, binary, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'], LANG: 'C.UTF-8', TERM: 'xterm-256color', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let stderr = '';
  let searchFrom = 0;
  let stepsTaken = 0;
  let typing: Promise<void> = Promise.resolve();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += stripVTControlCharacters(chunk);
    for (let step = options.steps[stepsTaken]; step !== undefined; step = options.steps[stepsTaken]) {
      const match = step.when.exec(screen.slice(searchFrom));
      if (match === null) break;
      searchFrom += match.index + match[0].length;
      stepsTaken += 1;
      const { keys } = step;
      typing = typing
        .then(async () => {
          const typed = typeof keys === 'string' ? keys : await keys();
          if (child.stdin.writable) child.stdin.write(typed);
        })
        .catch(() => {
          // A held answer that failed (the test failed first): the program is not left waiting for it.
          child.kill('SIGKILL');
        });
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: screen, stderr, stepsTaken });
    });
  });
}
