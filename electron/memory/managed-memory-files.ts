import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { MemoryTarget } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { isDirectory } from '../files';
import { captureChange, type MemoryCaptureQueue } from './memory-capture';
import type { ResolvedMemoryDirectory } from './memory-config';
import { readMemoryFile, statIdentity, type MemoryFileSnapshot } from './memory-file';
import { MemoryFileState, type MemoryChangeSink } from './memory-file-state';
import { memoryTargets } from './memory-format';
import { readWriteRecord } from './memory-write-record';

/** Every managed memory file's state, by directory and target, and the reads that keep them current. */
export class ManagedMemoryFiles {
  readonly #directories: readonly ResolvedMemoryDirectory[];
  readonly #captures: MemoryCaptureQueue;
  readonly #states = new Map<string, Map<MemoryTarget, MemoryFileState>>();
  readonly #byFile: ReadonlyMap<string, MemoryFileState>;

  constructor(
    directories: readonly ResolvedMemoryDirectory[],
    captures: MemoryCaptureQueue,
    sink: MemoryChangeSink,
    writer: string,
  ) {
    this.#directories = directories;
    this.#captures = captures;
    for (const directory of directories) {
      this.#states.set(
        directory.path,
        new Map(memoryTargets.map((target) => [target, new MemoryFileState(directory, target, sink, writer)])),
      );
    }
    this.#byFile = new Map(
      [...this.#states.values()].flatMap((byTarget) =>
        [...byTarget.values()].map((state) => [state.file, state] as const),
      ),
    );
  }

  /** The states of one managed directory's files. */
  in(directoryPath: string): MemoryFileState[] {
    return [...(this.#states.get(directoryPath)?.values() ?? [])];
  }

  /** The state of a managed file, by its path. */
  byFile(file: string): MemoryFileState | undefined {
    return this.#byFile.get(file);
  }

  /** The state of `target` in a managed directory named by its id or path; `not_found` for any other. */
  async stateOf(dir: string, target: MemoryTarget): Promise<MemoryFileState> {
    const candidates = [path.resolve(dir), await realpath(path.resolve(dir)).catch(() => path.resolve(dir))];
    for (const directory of this.#directories) {
      if (directory.id === dir || candidates.includes(directory.path)) {
        if (directory.isOptional === true && !(await isDirectory(directory.path))) {
          throw new AppError(
            'not_found',
            `${directory.path} does not exist yet; Vigil manages it from the moment Hermes Agent creates it (Vigil never creates Hermes's folders).`,
            { dir },
          );
        }
        const state = this.#states.get(directory.path)?.get(target);
        if (state !== undefined) return state;
      }
    }
    const known = this.#directories.map((directory) => directory.path).join(', ');
    throw new AppError(
      'not_found',
      `${dir} is not a memory directory Vigil manages (it manages: ${known || 'none'}). Add it to "memory.directories" in config.json.`,
      {
        dir,
      },
    );
  }

  /** Reads a file in its queue and reports the version if it is new; every version this service did not write is checkpointed. */
  async refresh(state: MemoryFileState, notifications: number): Promise<MemoryFileSnapshot> {
    const snapshot = await readMemoryFile(state.file);
    const change = state.observe(snapshot, {
      source: 'detect',
      record: await readWriteRecord(state.file),
      notifications,
    });
    if (change !== undefined) captureChange(this.#captures, change, snapshot);
    return snapshot;
  }

  /** A re-check: one stat, and a read only when the file is not the version last read. */
  async recheck(state: MemoryFileState): Promise<void> {
    if (state.isStill(await statIdentity(state.file))) return;
    await this.refresh(state, 0);
  }
}
