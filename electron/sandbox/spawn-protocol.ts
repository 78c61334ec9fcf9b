import type { AppErrorData } from '../../shared/errors';
import type { TerminalResult } from './terminal/run-terminal-command';
import type { NetworkPolicy } from './sandbox-settings';

/** The sandbox's part of a command: what the engine wraps it with, run from `directory`. */
export interface SpawnWrap {
  /** The folder the engine is run from (it protects the repository and shell start-up files there). */
  readonly directory: string;
  readonly denyRead: readonly string[];
  readonly allowWrite: readonly string[];
  readonly denyWrite: readonly string[];
  /** The command's private temp folder (the engine's own temp variable points there). */
  readonly temp: string;
  readonly network: NetworkPolicy;
  readonly bwrapPath?: string;
  /** Where the mount points made for absent protected paths are recorded until removed (Linux); the engine makes them when absent. */
  readonly placeholderRecords?: string;
}

/** One agent command for the spawn server: the command line, in the sandbox when `wrap` is given. */
export interface SpawnRequest {
  /** The shell command line, limits included (`/bin/sh -c`, or the platform's shell outside the sandbox). */
  readonly command: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly wrap?: SpawnWrap;
}

/** What the core sends the spawn server. */
export type SpawnServerCommand =
  | { readonly type: 'run'; readonly id: number; readonly request: SpawnRequest }
  | { readonly type: 'cancel'; readonly id: number };

/**
 * What the spawn server answers: a command's process group once it started, then its result or its
 * error. A sandboxed command is answered as soon as it exited (`isReleased: false`), before the
 * engine removes its mount points; `released` follows once they are gone.
 */
export type SpawnServerReply =
  | { readonly type: 'started'; readonly id: number; readonly pid: number }
  | { readonly type: 'finished'; readonly id: number; readonly result: TerminalResult; readonly isReleased: boolean }
  | { readonly type: 'released'; readonly id: number }
  | { readonly type: 'failed'; readonly id: number; readonly error: AppErrorData };
