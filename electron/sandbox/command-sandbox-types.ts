import type { Logger } from '../logging';
import type { FinishedCommand } from './sandbox-limits';
import type { RootScanCache } from './root-scan-cache';
import type { ScanFolderEvents } from './root-scan-watch';
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
  /** What the roots held at earlier commands, read again where it changed (default: a new cache, kept on disk when in-process). */
  readonly scans?: RootScanCache;
  /** A resident core's directory watchers: the default cache then reads again only the folders they report changed. */
  readonly folderEvents?: ScanFolderEvents;
  /**
   * Where commands are forked from: `server` (the default), a small process started now, so that a
   * resident core never forks itself; `in-process` for one-shot commands, small and short-lived.
   */
  readonly spawn?: 'server' | 'in-process';
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
