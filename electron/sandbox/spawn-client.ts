import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from '../../shared/errors';
import type { Logger } from '../logging';
import type { TerminalResult } from './terminal/run-terminal-command';
import type { CommandSpawner } from './command-execution';
import { recoverPlaceholders } from './placeholder-record';
import type { SpawnRequest, SpawnServerCommand, SpawnServerReply } from './spawn-protocol';
import { killTagged, spawnTagVariable } from './tagged-processes';

/** How the spawn server's program is started: its file and Node's flags. */
interface ServerEntry {
  readonly file: string;
  readonly execArgv: readonly string[];
}

/** The spawn server's file: from source (tests, `tsx`) with tsx's loader, from the build as its own entry. */
async function serverEntry(): Promise<ServerEntry> {
  if (import.meta.url.endsWith('.ts')) {
    const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { file: fileURLToPath(new URL('./spawn-server.ts', import.meta.url)), execArgv: ['--import', loader] };
  }
  for (const candidate of [
    new URL('./spawn-server.js', import.meta.url),
    new URL('../spawn-server.js', import.meta.url),
  ]) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return { file: fileURLToPath(candidate), execArgv: [] };
  }
  throw new AppError(
    'unexpected',
    `Vigil's spawn server (spawn-server.js) is missing beside ${import.meta.url}; reinstall Vigil.`,
  );
}

interface Pending {
  readonly resolve: (result: TerminalResult) => void;
  readonly reject: (error: Error) => void;
  /** The command's process (and process group) once the server started it. */
  pid?: number;
}

/** Bytes of the server's own error output kept, to say why it stopped. */
const stderrKeptBytes = 2048;

/**
 * The core's side of the spawn server: starts it (once, early, while the core is small), sends it
 * agent commands and waits for their results. If the server dies while commands run, each of them
 * fails with an `io_error` that says so, their processes are killed, and the next command starts a
 * new server.
 */
export class SpawnServer implements CommandSpawner {
  readonly #env: NodeJS.ProcessEnv;
  readonly #logger: Logger;
  readonly #pending = new Map<number, Pending>();
  /** Commands answered before the server released their sandbox (removed their mount points): settled once it did. */
  readonly #releasing = new Map<number, { readonly done: Promise<void>; readonly settle: () => void }>();
  #child: Promise<ChildProcess> | undefined;
  /** What marks the commands of each server this client started (in their environment), to find them if it dies. */
  readonly #tags = new WeakMap<ChildProcess, string>();
  #nextId = 1;
  #stderr = '';
  #isDisposed = false;
  /** Where the servers record the placeholders they make, and the removal of those a stopped server left. */
  readonly #placeholderRecords: string | undefined;
  #recovered: Promise<void>;

  constructor(env: NodeJS.ProcessEnv, logger: Logger, placeholderRecords?: string) {
    this.#env = env;
    this.#logger = logger;
    this.#placeholderRecords = placeholderRecords;
    this.#recovered = this.#recover();
  }

  /** Removes the placeholders a server that stopped (this one's last, or another process's) left in projects. */
  #recover(): Promise<void> {
    const folder = this.#placeholderRecords;
    return folder === undefined ? Promise.resolve() : recoverPlaceholders(folder, this.#logger);
  }

  /** Starts the server now if none runs (the first command would otherwise). */
  start(): Promise<ChildProcess> {
    this.#child ??= this.#launch();
    return this.#child;
  }

  /** The running server's process id (undefined before its start or after it stopped). */
  async pid(): Promise<number | undefined> {
    return (await this.#child?.catch(() => undefined))?.pid;
  }

  async #launch(): Promise<ChildProcess> {
    const entry = await serverEntry();
    const child = fork(entry.file, [], {
      execArgv: [...entry.execArgv],
      env: { ...this.#env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#tags.set(child, randomUUID());
    this.#stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-stderrKeptBytes);
    });
    (child.stderr as Socket | null)?.unref();
    child.on('message', (reply: SpawnServerReply) => this.#answer(reply));
    child.once('error', (error) => this.#stopped(child, `it could not start: ${error.message}`));
    child.once('exit', (code, signal) =>
      this.#stopped(child, signal === null ? `it exited with code ${code}` : `it was killed by ${signal}`),
    );
    this.#idle(child);
    return child;
  }

  /** Lets this process exit while no command runs (a one-shot CLI command must not wait for the server). */
  #idle(child: ChildProcess): void {
    if (this.#pending.size > 0) return;
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  #answer(reply: SpawnServerReply): void {
    if (reply.type === 'released' || reply.type === 'failed') this.#releasing.get(reply.id)?.settle();
    const pending = this.#pending.get(reply.id);
    if (pending === undefined || reply.type === 'released') return;
    if (reply.type === 'started') {
      pending.pid = reply.pid;
      return;
    }
    this.#pending.delete(reply.id);
    if (reply.type === 'finished') {
      if (!reply.isReleased) this.#awaitRelease(reply.id);
      pending.resolve(reply.result);
    } else pending.reject(new AppError(reply.error.code, reply.error.message, reply.error.details));
    void this.#child?.then((child) => this.#idle(child));
  }

  /** Notes a command answered before its sandbox was released, until the server says it was (or stops). */
  #awaitRelease(id: number): void {
    let settle = (): void => undefined;
    const done = new Promise<void>((resolve) => {
      settle = () => {
        this.#releasing.delete(id);
        resolve();
      };
    });
    this.#releasing.set(id, { done, settle });
  }

  /**
   * Settles once the server has released the sandbox of every command it already answered: the
   * mount points the engine made for it are gone, so a profile built after this sees the roots as
   * the commands left them, not the engine's placeholders.
   */
  async released(): Promise<void> {
    await Promise.all([...this.#releasing.values()].map((entry) => entry.done));
    await this.#recovered;
  }

  /** The server went away: every command it ran fails (and is killed), the next one starts a new server. */
  #stopped(child: ChildProcess, how: string): void {
    void this.#child?.then((current) => {
      if (current === child) this.#child = undefined;
    });
    const said = this.#stderr.trim() === '' ? '' : ` It said: ${this.#stderr.trim().split('\n').slice(-3).join(' / ')}`;
    if (!this.#isDisposed) this.#logger.warn('the spawn server stopped', { pid: child.pid, how });
    // A command whose start the server had not reported yet is found by its mark.
    const tag = this.#tags.get(child);
    if (this.#pending.size > 0 && tag !== undefined) void killTagged(`${tag}.`);
    // Its clean-up of answered commands will not come: what it recorded is removed before the next command's profile.
    // (bubblewrap dies with it, --die-with-parent, so no sandbox is left on those placeholders.)
    this.#recovered = this.#recovered.then(() => this.#recover());
    for (const entry of [...this.#releasing.values()]) entry.settle();
    for (const [id, pending] of this.#pending) {
      if (pending.pid !== undefined) killGroup(pending.pid);
      this.#pending.delete(id);
      pending.reject(
        new AppError(
          'io_error',
          `The command was stopped: Vigil's spawn server (pid ${child.pid ?? '?'}), which runs agent commands, stopped while it ran (${how}).${said} What the command did before that is not undone. Run it again: the next command starts a new spawn server.`,
          { spawnServerPid: child.pid, reason: how },
        ),
      );
    }
  }

  /** The running server, started again when the last one stopped. */
  async #connected(): Promise<ChildProcess> {
    for (let attempt = 0; ; attempt += 1) {
      const child = await this.start().catch((error: unknown) => {
        this.#child = undefined;
        throw error;
      });
      if (child.connected || attempt > 0) return child;
      this.#child = undefined;
    }
  }

  /** Runs one command in the server; `signal` stops it (and everything it started). */
  async run(request: SpawnRequest, signal?: AbortSignal): Promise<TerminalResult> {
    if (this.#isDisposed) throw new AppError('conflict', 'Vigil is shutting down; the command was not run.');
    const child = await this.#connected();
    const id = this.#nextId++;
    const mark = { [spawnTagVariable]: `${this.#tags.get(child) ?? ''}.${id}` };
    const sent: SpawnServerCommand = { type: 'run', id, request: { ...request, env: { ...request.env, ...mark } } };
    const result = new Promise<TerminalResult>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    child.send(sent, (error) => {
      if (error !== null) this.#stopped(child, `it could not be reached: ${error.message}`);
    });
    const cancel = (): void => void child.send({ type: 'cancel', id } satisfies SpawnServerCommand, () => undefined);
    signal?.addEventListener('abort', cancel, { once: true });
    if (signal?.aborted === true) cancel();
    try {
      return await result;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Stops the server (it stops the commands it still runs). */
  async dispose(): Promise<void> {
    if (this.#isDisposed) return;
    this.#isDisposed = true;
    const child = await this.#child?.catch(() => undefined);
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.ref();
    child.disconnect();
    // The server stops its commands and exits on its own; one that does not within the grace is killed.
    const late = setTimeout(() => child.kill('SIGKILL'), disposeGraceMs);
    await exited;
    clearTimeout(late);
  }
}

/** How long a disposed server gets to stop its commands and exit before it is killed (ms). */
const disposeGraceMs = 5000;

/** Kills a command's process group (it was started as its leader). */
function killGroup(pid: number): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
