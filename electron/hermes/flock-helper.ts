import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { AppError } from '../../shared/errors';
import type { FlockHelperProgram } from './flock-helper-program';

/** A reply of the helper, as the protocol names them. */
type Reply =
  | { readonly kind: 'LOCKED' | 'UNLOCKED' | 'WAITING' }
  | { readonly kind: 'ERROR'; readonly why: string }
  | { readonly kind: 'EXITED' };

/** What the lock is for, in messages. */
export interface FlockRequest {
  /** Fails with `busy` when the lock is not ours within this long. */
  readonly timeoutMs: number;
  /** Called once when someone else holds the lock and the helper starts waiting for it. */
  readonly onWaiting?: () => void;
}

function parseReply(line: string): Reply | undefined {
  if (line === 'LOCKED' || line === 'UNLOCKED' || line === 'WAITING') return { kind: line };
  if (line.startsWith('ERROR')) return { kind: 'ERROR', why: line.slice(5).trim() };
  return undefined;
}

/** Makes a stream keep the process alive (or not); a closed pipe is left alone (it has nothing to hold). */
function setRef(stream: unknown, isRef: boolean): void {
  const socket = stream as Partial<Pick<Socket, 'ref' | 'unref' | 'destroyed'>>;
  if (socket.destroyed === true) return;
  if (isRef) socket.ref?.();
  else socket.unref?.();
}

/**
 * One helper process holding flock(2) on one lock file for this process, over a line protocol
 * (see flock-helper-program.ts). It stays up between locks (starting perl costs more than a
 * lock), never keeps Node alive while idle, and exits when Node closes its stdin or dies; its
 * death releases the lock. One request at a time: the caller serialises acquisitions.
 */
export class FlockHelper {
  readonly #program: FlockHelperProgram;
  readonly #lockPath: string;
  readonly #onLost: () => void;
  #child: ChildProcessWithoutNullStreams | undefined;
  #replies: Reply[] = [];
  #waiter: ((reply: Reply) => void) | undefined;
  #isHeld = false;
  /** The end of what the helper wrote on stderr, for an error message. */
  #stderr = '';

  constructor(program: FlockHelperProgram, lockPath: string, onLost: () => void) {
    this.#program = program;
    this.#lockPath = lockPath;
    this.#onLost = onLost;
  }

  /** Whether the helper process is running. */
  get isRunning(): boolean {
    return this.#child !== undefined;
  }

  /** Takes the lock; rejects with `busy` after the timeout (the helper is killed, which drops any late lock). */
  async lock(request: FlockRequest): Promise<void> {
    const child = this.#start();
    this.#setActive(true);
    child.stdin.write('LOCK\n');
    const deadline = { isPassed: false };
    const timer = setTimeout(() => {
      deadline.isPassed = true;
      child.kill('SIGKILL');
    }, request.timeoutMs);
    try {
      for (;;) {
        const reply = await this.#next();
        if (reply.kind === 'WAITING') {
          request.onWaiting?.();
          continue;
        }
        if (reply.kind === 'LOCKED') {
          this.#isHeld = true;
          return;
        }
        if (reply.kind === 'EXITED' && !deadline.isPassed) {
          throw new AppError(
            'io_error',
            `The helper that locks ${this.#lockPath} (${this.#program.kind}) stopped unexpectedly (${this.#stderr.trim() || 'no message'}); nothing was written. Retry.`,
            {
              lockPath: this.#lockPath,
            },
          );
        }
        if (reply.kind === 'EXITED') {
          throw new AppError(
            'busy',
            `${this.#lockPath} stayed locked by another program (Hermes Agent?) for ${Math.round(request.timeoutMs / 1000)} s; nothing was written. Retry when it is done.`,
            {
              lockPath: this.#lockPath,
            },
          );
        }
        throw this.#failure(reply.kind === 'ERROR' ? reply.why : reply.kind);
      }
    } finally {
      clearTimeout(timer);
      this.#setActive(false);
    }
  }

  /** Lets the lock go (a helper that died has let it go already). */
  async unlock(): Promise<void> {
    const child = this.#child;
    this.#isHeld = false;
    if (child === undefined) return;
    this.#setActive(true);
    try {
      child.stdin.write('UNLOCK\n');
      await this.#next();
    } finally {
      this.#setActive(false);
    }
  }

  /** Ends the helper (closing its stdin); a held lock is released by its exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    // Detached first: a lock asked for while this one exits starts a fresh helper.
    this.#child = undefined;
    this.#isHeld = false;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.stdin.end();
    // A helper still blocked in flock() reads its stdin only once it gets the lock: do not wait for that.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 1_000);
    await exited;
    clearTimeout(stuck);
  }

  #failure(why: string): AppError {
    if (why === 'symlink') {
      return new AppError(
        'conflict',
        `${this.#lockPath} is a symbolic link; Vigil never locks through one, so nothing was written. Remove the link (Hermes recreates its lock file) and retry.`,
        {
          lockPath: this.#lockPath,
        },
      );
    }
    if (why === 'not-a-file')
      return new AppError(
        'wrong_kind',
        `${this.#lockPath} is not a regular file, so it cannot be locked; nothing was written. Move it away and retry.`,
        { lockPath: this.#lockPath },
      );
    return new AppError(
      'io_error',
      `Could not lock ${this.#lockPath} (${why}); nothing was written. Check the folder's permissions.`,
      { lockPath: this.#lockPath },
    );
  }

  #start(): ChildProcessWithoutNullStreams {
    if (this.#child !== undefined) return this.#child;
    const child = spawn(this.#program.command, this.#program.args(this.#lockPath), {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.#child = child;
    this.#replies = [];
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const reply = parseReply(line.trim());
      if (reply !== undefined) this.#deliver(reply);
    });
    this.#stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-500);
    });
    child.stdin.on('error', () => undefined);
    const ended = (): void => {
      if (this.#child !== child) return;
      this.#child = undefined;
      if (this.#isHeld) {
        this.#isHeld = false;
        this.#onLost();
      }
      this.#deliver({ kind: 'EXITED' });
    };
    child.on('exit', ended);
    child.on('error', ended);
    return child;
  }

  #deliver(reply: Reply): void {
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#replies.push(reply);
      return;
    }
    this.#waiter = undefined;
    waiter(reply);
  }

  #next(): Promise<Reply> {
    const queued = this.#replies.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#child === undefined) return Promise.resolve({ kind: 'EXITED' });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Keeps Node alive while a request waits for its reply, and only then. */
  #setActive(isActive: boolean): void {
    const child = this.#child;
    if (child === undefined) return;
    if (isActive) child.ref();
    else child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) setRef(stream, isActive);
  }
}
