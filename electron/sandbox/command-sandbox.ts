import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import { missingSandboxTools, startFailure, type SandboxStatus } from './sandbox-availability';
import { sandboxEnvironment } from './sandbox-environment';
import { undoPlantedCode } from './code-denies';
import { limitNotes, limitPrefix, type FinishedCommand } from './sandbox-limits';
import { buildSandboxProfile, type SandboxProfile } from './sandbox-profile';
import { acquireEngine, commandEnded, releaseEngine, wrapInSandbox } from './sandbox-runtime';
import type { SandboxSettings } from './sandbox-settings';

/** What a CommandSandbox is built from. */
export interface CommandSandboxOptions {
  /** $VIGIL_HOME: never readable by agent commands. */
  readonly vigilHome: string;
  /** The user's home folder, whose credential stores are hidden (the OS's own home is hidden too). */
  readonly home: string;
  /** The sandbox's part of config.json, read before every command. */
  readonly settings: () => Promise<SandboxSettings>;
  readonly logger: Logger;
  /** The environment commands start from (default: this process's). Vigil's variables are dropped. */
  readonly env?: NodeJS.ProcessEnv;
  /** Values no command may see in any variable (tokens this process knows). */
  readonly secrets?: () => readonly string[];
  /** Where session temp folders go (default: `<os temp>/vigil-sandbox-<uid>`). */
  readonly tempRoot?: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * A command ready to start in the sandbox: spawn `file` with `args` and `env`, then call `ended()`
 * once it exited, with what it returned: it releases the sandbox, removes what the command added
 * that git would read as configuration, and resolves to notes for the result (those removals, a
 * resource limit the command hit).
 */
export interface SandboxedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  ended(result?: FinishedCommand): Promise<string[]>;
}

/** One command to run in the sandbox. */
export interface SandboxRequest {
  readonly command: string;
  /** The resolved working directory. */
  readonly cwd: string;
  /** The session's workspace roots: the only folders the command may write, with its temp folder. */
  readonly roots: readonly string[];
  readonly sessionId: string;
}

function uidPart(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
}

/**
 * Runs agents' terminal commands in the OS sandbox (bubblewrap on Linux, Seatbelt on macOS):
 * writable only in the session's workspace roots, a private temp folder per session and the
 * agents' package cache; Vigil's data folder, other sessions' temp folders and the credential
 * stores unreadable; Vigil's variables gone from the environment; the network through a proxy
 * that applies `policy.network` and never reaches this machine's own services. `status()` says
 * whether the sandbox can start here, and if not why and what fixes it.
 */
export class CommandSandbox {
  readonly #options: CommandSandboxOptions;
  readonly #platform: NodeJS.Platform;
  readonly #tempRoot: string;
  readonly #temps = new Map<string, Promise<string>>();
  readonly #statuses = new Map<string, Promise<SandboxStatus>>();
  #isDisposed = false;

  constructor(options: CommandSandboxOptions) {
    this.#options = options;
    this.#platform = options.platform ?? process.platform;
    this.#tempRoot = options.tempRoot ?? path.join(os.tmpdir(), `vigil-sandbox-${uidPart()}`);
    acquireEngine();
  }

  /** Whether commands can run sandboxed here (checked once per bwrap setting, with a real sandboxed command). */
  async status(): Promise<SandboxStatus> {
    const settings = await this.#options.settings();
    const key = settings.sandbox.bwrapPath ?? '';
    let status = this.#statuses.get(key);
    if (status === undefined) {
      status = this.#check(settings);
      this.#statuses.set(key, status);
    }
    return status;
  }

  async #check(settings: SandboxSettings): Promise<SandboxStatus> {
    const missing = await missingSandboxTools(
      this.#platform,
      settings.sandbox.bwrapPath,
      this.#options.env ?? process.env,
    );
    if (missing !== undefined) return missing;
    const probeDir = await this.#temp('probe');
    try {
      const prepared = await this.#wrap(
        { command: 'true', cwd: probeDir, roots: [probeDir], sessionId: 'probe' },
        settings,
      );
      const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(prepared.file, [...prepared.args], {
          cwd: probeDir,
          env: prepared.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', (error) => resolve({ code: -1, output: error.message }));
        child.once('close', (code) => resolve({ code, output }));
      });
      await prepared.ended();
      if (result.code === 0) return { kind: 'ready', engine: this.#platform === 'darwin' ? 'seatbelt' : 'bubblewrap' };
      return await startFailure(this.#platform, result.output);
    } catch (error) {
      return startFailure(this.#platform, error instanceof Error ? error.message : String(error));
    }
  }

  /** The session's private temp folder (mode 0700), made on first use. */
  #temp(sessionId: string): Promise<string> {
    let folder = this.#temps.get(sessionId);
    if (folder === undefined) {
      folder = (async () => {
        await mkdir(this.#tempRoot, { recursive: true, mode: 0o700 });
        const stats = await lstat(this.#tempRoot);
        const isOwn = typeof process.getuid !== 'function' || stats.uid === process.getuid();
        if (!stats.isDirectory() || !isOwn) {
          throw new AppError(
            'conflict',
            `The sandbox's temp folder ${this.#tempRoot} is not a folder of this user; remove it and try again. Nothing was run.`,
            { path: this.#tempRoot },
          );
        }
        return mkdtemp(path.join(this.#tempRoot, `${sessionId.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 40)}-`));
      })();
      this.#temps.set(sessionId, folder);
      folder.catch(() => this.#temps.delete(sessionId));
    }
    return folder;
  }

  /** The profile of one command of a session. */
  async profile(request: SandboxRequest, settings: SandboxSettings): Promise<SandboxProfile> {
    const homes = [...new Set([path.resolve(this.#options.home), os.homedir()])];
    return buildSandboxProfile({
      roots: request.roots,
      privateTemp: await this.#temp(request.sessionId),
      tempParent: this.#tempRoot,
      agentCache: path.join(this.#tempRoot, 'agent-cache'),
      vigilHome: path.resolve(this.#options.vigilHome),
      homes,
      policy: settings.sandbox,
    });
  }

  async #wrap(request: SandboxRequest, settings: SandboxSettings): Promise<SandboxedCommand> {
    const profile = await this.profile(request, settings);
    // The engine protects the repository and the shell start-up files of the folder it is run from, by
    // mounting over them (absent ones too, as device files git refuses to add): it is run from the
    // session's private temp folder, and the profile protects the roots' repositories itself.
    const limits = settings.sandbox.limits;
    const wrapped = await wrapInSandbox({
      command: `${limitPrefix(limits)}${request.command}`,
      directory: profile.env['TMPDIR'] ?? request.cwd,
      profile,
      network: settings.network,
      bwrapPath: settings.sandbox.bwrapPath,
    });
    let hasEnded = false;
    return {
      file: '/bin/sh',
      args: ['-c', wrapped],
      env: sandboxEnvironment(this.#options.env ?? process.env, profile.env, this.#options.secrets?.() ?? []),
      async ended(result) {
        if (hasEnded) return [];
        hasEnded = true;
        commandEnded();
        const removed = await undoPlantedCode(profile.gitDirs, profile.absentFiles);
        return [...removed, ...(result === undefined ? [] : limitNotes(result, limits))];
      },
    };
  }

  /** The environment of a command a person allowed to run outside the sandbox (it cannot start here): still without Vigil's variables. */
  environment(): NodeJS.ProcessEnv {
    return sandboxEnvironment(this.#options.env ?? process.env, {}, this.#options.secrets?.() ?? []);
  }

  /**
   * Prepares one command for the sandbox. Rejects with `conflict` when its profile cannot be built
   * (a root vanished, too many mounts): the command is then never run.
   */
  async prepare(request: SandboxRequest): Promise<SandboxedCommand> {
    if (this.#isDisposed) throw new AppError('conflict', 'Vigil is shutting down; the command was not run.');
    return this.#wrap(request, await this.#options.settings());
  }

  /** Removes this process's session temp folders and lets go of the engine. */
  async dispose(): Promise<void> {
    if (this.#isDisposed) return;
    this.#isDisposed = true;
    const folders = await Promise.all([...this.#temps.values()].map((folder) => folder.catch(() => undefined)));
    await Promise.all(
      folders.flatMap((folder) => (folder === undefined ? [] : [rm(folder, { recursive: true, force: true })])),
    );
    await releaseEngine().catch((error: unknown) =>
      this.#options.logger.warn('stopping the sandbox engine failed', { error }),
    );
  }
}
