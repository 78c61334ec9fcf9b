import type { Logger } from '../logging/logger';
import type { MemoryCheckpointer } from './memory-checkpointer';
import { runOutsideMemoryLocks } from './memory-lock';

interface DirectoryCaptures {
  running: Promise<void> | undefined;
  /** Reasons waiting for the next run (a run captures whatever is on disk when it starts). */
  pending: Set<string>;
}

/**
 * Checkpoints memory directories after external changes, in the background. A checkpoint captures
 * what is on disk when it runs, so requests that arrive while one runs fold into a single next
 * run: a burst of edits costs at most two checkpoints, and the last version always gets one.
 */
export class MemoryCaptureQueue {
  readonly #directories = new Map<string, DirectoryCaptures>();

  constructor(
    readonly checkpoints: MemoryCheckpointer | undefined,
    readonly logger: Logger,
    readonly reportProblem: (message: string) => void,
  ) {}

  /** Asks for a checkpoint of `dir` with `reason` (`external edit of MEMORY.md`). */
  schedule(dir: string, reason: string): void {
    if (this.checkpoints === undefined) return;
    const captures = this.#directories.get(dir) ?? { running: undefined, pending: new Set<string>() };
    this.#directories.set(dir, captures);
    captures.pending.add(reason);
    // Started outside the caller's memory lock: the capture outlives it.
    captures.running ??= runOutsideMemoryLocks(() => this.#drain(dir, captures));
  }

  /** Resolves when no capture of `dir` is running or waiting. */
  async idle(dir: string): Promise<void> {
    for (let captures = this.#directories.get(dir); captures?.running !== undefined; captures = this.#directories.get(dir)) {
      await captures.running;
    }
  }

  /** Resolves when every directory is idle. */
  async idleAll(): Promise<void> {
    await Promise.all([...this.#directories.keys()].map((dir) => this.idle(dir)));
  }

  async #drain(dir: string, captures: DirectoryCaptures): Promise<void> {
    const checkpoints = this.checkpoints;
    while (checkpoints !== undefined && captures.pending.size > 0) {
      const reason = [...captures.pending].join('; ');
      captures.pending.clear();
      try {
        await checkpoints.checkpoint(dir, { reason });
      } catch (error) {
        const message = `Could not checkpoint ${dir} after an external edit: ${error instanceof Error ? error.message : String(error)}`;
        this.logger.error('memory capture failed', { dir, reason, error });
        this.reportProblem(message);
      }
    }
    captures.running = undefined;
    this.#directories.delete(dir);
  }
}
