import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import type { TerminalResult } from './terminal/run-terminal-command';
import { missingSandboxTools, type SandboxStatus } from './sandbox-availability';
import { sandboxEnvironment } from './sandbox-environment';
import { undoPlantedCode } from './code-denies';
import { limitNotes, limitPrefix } from './sandbox-limits';
import { buildSandboxProfile, type SandboxProfile } from './sandbox-profile';
import { RootScanCache } from './root-scan-cache';
import type { CommandSandboxOptions, SandboxedCommand } from './command-sandbox-types';
import { rootScans } from './root-scan-store';
import { placeholderRecordFolder } from './placeholder-record';
import { makeSessionTemp, tempFolderFailure } from './session-temp';
import { isSandboxStartFailure, recordedProbe, removeReadyRecord } from './sandbox-ready-record';
import { acquireEngine, commandEnded, releaseEngine, wrapInSandbox } from './sandbox-runtime';
import type { SandboxSettings } from './sandbox-settings';
import { SpawnServer } from './spawn-client';
import { InProcessSpawner, warmSpawner, type CommandSpawner } from './command-execution';

export type { CommandSandboxOptions, SandboxedCommand } from './command-sandbox-types';

/** One command to run in the sandbox. */
export interface SandboxRequest {
  readonly command: string;
  /** The resolved working directory. */
  readonly cwd: string;
  /** The session's workspace roots: the only folders the command may write, with its temp folder. */
  readonly roots: readonly string[];
  readonly sessionId: string;
}

/** One command to run: in the sandbox (`run`) or, where it cannot start and a person allowed it, outside (`runOutside`). */
export interface SandboxRun {
  readonly command: string;
  /** The resolved working directory. */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  readonly outputCapBytes: number;
  /** Stops the command and everything it started. */
  readonly signal?: AbortSignal;
}

/** The temp folder the engine is run from: empty, and no command's (session ids are never this). */
const engineFolderKey = 'engine';
function uidPart(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/**
 * Runs agents' terminal commands in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS):
 * writable only in the session's workspace roots, a private temp folder per session and the
 * agents' package cache; Vigil's data folder, other sessions' temp folders and the credential
 * stores unreadable; Vigil's variables gone from the environment; the network through a proxy
 * that applies `policy.network` and never reaches this machine's own services. `status()` says
 * whether the sandbox can start here, and if not why and what fixes it. Commands are started by
 * the spawn server, a small process started with the sandbox: the core never forks itself for them.
 */
export class CommandSandbox {
  readonly #options: CommandSandboxOptions;
  readonly #platform: NodeJS.Platform;
  readonly #tempRoot: string;
  readonly #temps = new Map<string, Promise<string>>();
  readonly #statuses = new Map<string, Promise<SandboxStatus>>();
  readonly #scans: RootScanCache;
  readonly #server: CommandSpawner;
  #hasEngine = false;
  #isDisposed = false;
  /** Where the mount points of absent protected paths are recorded until removed (Linux: bubblewrap needs them). */
  readonly #placeholderRecords: string | undefined;

  constructor(options: CommandSandboxOptions) {
    this.#options = options;
    this.#platform = options.platform ?? process.platform;
    this.#placeholderRecords = placeholderRecordFolder(options.vigilHome, this.#platform);
    this.#tempRoot = options.tempRoot ?? path.join(os.tmpdir(), `vigil-sandbox-${uidPart()}`);
    // A one-shot command keeps its look at the roots on disk for the next one; a resident core keeps it in memory.
    this.#scans =
      options.scans ??
      (options.spawn === 'in-process'
        ? rootScans(options.vigilHome)
        : new RootScanCache({ ...(options.folderEvents && { events: options.folderEvents }) }));
    const records = this.#placeholderRecords;
    if (options.spawn === 'in-process') this.#server = new InProcessSpawner(records, options.logger);
    else {
      const server = new SpawnServer(this.environment(), options.logger, records);
      // Started now, while this process is small: forking it later would copy a grown core.
      server.start().catch((error: unknown) => options.logger.warn('the spawn server did not start', { error }));
      this.#server = server;
    }
  }

  /** The process agent commands are forked from (the spawn server's once it runs), for tests and diagnostics. */
  spawnerPid(): Promise<number | undefined> {
    return this.#server.pid();
  }

  /** Settles once every answered command's sandbox is released: the placeholders made for it are gone. */
  async released(): Promise<void> {
    await this.#server.released?.();
  }

  /** Starts the sandbox engine for a command about to run, where this process forks commands (one-shot); else nothing. */
  warmUp(): void {
    if (!this.#isDisposed) warmSpawner(this.#server, this.#options.settings);
  }

  /** Whether commands can run sandboxed here (checked once per bwrap setting, with a real sandboxed command). */
  async status(): Promise<SandboxStatus> {
    const settings = await this.#options.settings();
    const key = settings.sandbox.bwrapPath ?? '';
    let status = this.#statuses.get(key);
    if (status === undefined) {
      const checked = this.#check(settings);
      status = checked.then((outcome) => outcome.status);
      this.#statuses.set(key, status);
      // A temp folder that could not be made says nothing about the sandbox: the next call checks again.
      void checked.then((outcome) => {
        if (outcome.isPassing) this.#statuses.delete(key);
      });
    }
    return status;
  }

  async #check(settings: SandboxSettings): Promise<{ readonly status: SandboxStatus; readonly isPassing: boolean }> {
    const env = this.#options.env ?? process.env;
    const missing = await missingSandboxTools(this.#platform, settings.sandbox.bwrapPath, env);
    if (missing !== undefined) return { status: missing, isPassing: false };
    let tempFailure: SandboxStatus | undefined;
    const status = await recordedProbe(
      this.#platform,
      this.#options.vigilHome,
      settings.sandbox.bwrapPath,
      env,
      async () => {
        const probeDir = await this.#temp('probe').catch((error: unknown) => {
          tempFailure = tempFolderFailure(this.#tempRoot, error);
          throw error;
        });
        const probe = { command: 'true', cwd: probeDir, timeoutMs: 60_000, outputCapBytes: 64 * 1024 };
        return this.#run(probe, { roots: [probeDir], sessionId: 'probe' }, settings);
      },
    );
    return tempFailure === undefined ? { status, isPassing: false } : { status: tempFailure, isPassing: true };
  }

  /** The session's private temp folder (mode 0700), made on first use. */
  #temp(sessionId: string): Promise<string> {
    let folder = this.#temps.get(sessionId);
    if (folder === undefined) {
      folder = makeSessionTemp(this.#tempRoot, sessionId);
      this.#temps.set(sessionId, folder);
      folder.catch(() => this.#temps.delete(sessionId));
    }
    return folder;
  }

  /** The profile of one command of a session. */
  async profile(request: Omit<SandboxRequest, 'command' | 'cwd'>, settings: SandboxSettings): Promise<SandboxProfile> {
    const homes = [...new Set([path.resolve(this.#options.home), os.homedir()])];
    return buildSandboxProfile({
      roots: request.roots,
      privateTemp: await this.#temp(request.sessionId),
      tempParent: this.#tempRoot,
      agentCache: path.join(this.#tempRoot, 'agent-cache'),
      vigilHome: path.resolve(this.#options.vigilHome),
      homes,
      policy: settings.sandbox,
      scans: this.#scans,
    });
  }

  /** The command's environment: this process's without Vigil's variables, the profile's laid over it. */
  #commandEnv(profile?: SandboxProfile): NodeJS.ProcessEnv {
    return sandboxEnvironment(this.#options.env ?? process.env, profile?.env ?? {}, this.#options.secrets?.() ?? []);
  }

  async #run(
    run: SandboxRun,
    session: Omit<SandboxRequest, 'command' | 'cwd'>,
    settings: SandboxSettings,
  ): Promise<TerminalResult> {
    await this.#server.released?.(); // the roots without the mount points of a command answered before their removal
    const profile = await this.profile(session, settings);
    const limits = settings.sandbox.limits;
    const temp = profile.env['TMPDIR'] ?? run.cwd;
    let result: TerminalResult | undefined;
    try {
      result = await this.#server.run(
        {
          command: `${limitPrefix(limits)}${run.command}`,
          cwd: run.cwd,
          env: this.#commandEnv(profile),
          timeoutMs: run.timeoutMs,
          outputCapBytes: run.outputCapBytes,
          // The engine mounts over the repository and shell start-up files of the folder it is run from where the command may
          // write (absent ones as files it makes and removes): run from an empty folder no command may write, it mounts nothing.
          wrap: {
            directory: await this.#temp(engineFolderKey),
            temp,
            denyRead: profile.denyRead,
            allowWrite: profile.allowWrite,
            denyWrite: profile.denyWrite,
            network: settings.network,
            ...(settings.sandbox.bwrapPath === undefined ? {} : { bwrapPath: settings.sandbox.bwrapPath }),
            ...(this.#placeholderRecords === undefined ? {} : { placeholderRecords: this.#placeholderRecords }),
          },
        },
        run.signal,
      );
    } finally {
      // Whatever happened to the command, what it planted is removed.
      const removed = await undoPlantedCode(profile.gitDirs, profile.absentFiles);
      if (result !== undefined) {
        const notes = [...profile.notes, ...removed, ...limitNotes(result, limits)];
        if (notes.length > 0) result = { ...result, sandbox_notes: notes };
      }
    }
    return result;
  }

  /**
   * Runs one command in the sandbox, through the spawn server. Rejects with `conflict` when its
   * profile cannot be built (a root vanished, too many mounts): the command is then never run; with
   * `io_error` when the spawn server stopped while it ran.
   */
  async run(request: SandboxRequest & SandboxRun): Promise<TerminalResult> {
    if (this.#isDisposed) throw new AppError('conflict', 'Vigil is shutting down; the command was not run.');
    const result = await this.#run(request, request, await this.#options.settings());
    // A sandbox that no longer starts (a setting changed since the recorded probe): the next status() probes again.
    if (isSandboxStartFailure(result)) {
      this.#statuses.clear();
      await removeReadyRecord(this.#options.vigilHome);
    }
    return result;
  }

  /** Runs a command a person allowed outside the sandbox (it cannot start here), through the spawn server, without Vigil's variables. */
  runOutside(request: SandboxRun): Promise<TerminalResult> {
    const { command, cwd, timeoutMs, outputCapBytes, signal } = request;
    return this.#server.run({ command, cwd, timeoutMs, outputCapBytes, env: this.#commandEnv() }, signal);
  }

  /** The environment of a command a person allowed to run outside the sandbox: without Vigil's variables. */
  environment(): NodeJS.ProcessEnv {
    return this.#commandEnv();
  }

  /**
   * The command line one command would run with, wrapped in this process (to look at its profile;
   * commands run through `run`). Call `ended()` once done with it.
   */
  async prepare(request: SandboxRequest): Promise<SandboxedCommand> {
    if (this.#isDisposed) throw new AppError('conflict', 'Vigil is shutting down; the command was not run.');
    if (!this.#hasEngine) acquireEngine();
    this.#hasEngine = true;
    const settings = await this.#options.settings();
    const profile = await this.profile(request, settings);
    const limits = settings.sandbox.limits;
    const temp = profile.env['TMPDIR'] ?? request.cwd;
    const wrapped = await wrapInSandbox({
      command: `${limitPrefix(limits)}${request.command}`,
      directory: await this.#temp(engineFolderKey),
      profile: { ...profile, temp },
      network: settings.network,
      bwrapPath: settings.sandbox.bwrapPath,
    });
    let hasEnded = false;
    return {
      file: '/bin/sh',
      args: ['-c', wrapped],
      env: this.#commandEnv(profile),
      async ended(result) {
        if (hasEnded) return [];
        hasEnded = true;
        commandEnded();
        const removed = await undoPlantedCode(profile.gitDirs, profile.absentFiles);
        return [...profile.notes, ...removed, ...(result === undefined ? [] : limitNotes(result, limits))];
      },
    };
  }

  /** Stops the spawn server, removes this process's session temp folders and lets go of the engine. */
  async dispose(): Promise<void> {
    if (this.#isDisposed) return;
    this.#isDisposed = true;
    if (this.#options.scans === undefined) this.#scans.dispose();
    await this.#server.dispose();
    const folders = await Promise.all([...this.#temps.values()].map((folder) => folder.catch(() => undefined)));
    await Promise.all(
      folders.flatMap((folder) => (folder === undefined ? [] : [rm(folder, { recursive: true, force: true })])),
    );
    if (!this.#hasEngine) return;
    await releaseEngine().catch((error: unknown) =>
      this.#options.logger.warn('stopping the sandbox engine failed', { error }),
    );
  }
}
