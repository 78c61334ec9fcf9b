import type { DirState } from './dir-state';
import { SavedFolder, type SavedColumns } from './saved-folder';
import { encodeBody, type EncodedBody } from './stat-cache-body';
import { modes, reasons } from './stat-cache-format';
import type { HashCandidate } from './stat-walk';

/** Folders are put into columns once this many of their files are complete (one chunk of columns each time). */
const filesPerChunk = 8_192;

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/**
 * Builds a first state straight into columns while its files are hashed: a folder whose every
 * candidate has its result is complete, and complete folders are swapped, a chunk at a time, for
 * ones that read their entries from columns (as a saved stat cache's folders do, about 100 bytes
 * a file instead of ~300 as objects). A 200,000-file first snapshot thus never holds one object per
 * file (measured in docs/benchmarks/core-memory-notes.md). Only for a state no snapshot committed
 * yet: a folder holding a racy record stays objects (a later snapshot compares those by identity).
 */
export class FolderCompactor {
  readonly #state: DirState;
  /** Results still to come, by folder. */
  readonly #pending = new Map<string, number>();
  readonly #racyFolders = new Set<string>();
  #complete: string[] = [];
  #completeFiles = 0;

  constructor(state: DirState, candidates: readonly HashCandidate[]) {
    this.#state = state;
    for (const { rel } of candidates) {
      const parent = parentOf(rel);
      this.#pending.set(parent, (this.#pending.get(parent) ?? 0) + 1);
    }
  }

  /** The result for `rel` was applied to the state (`isRacy`: its record is one a later snapshot compares by identity). */
  applied(rel: string, isRacy: boolean): void {
    const parent = parentOf(rel);
    if (isRacy) this.#racyFolders.add(parent);
    const left = (this.#pending.get(parent) ?? 1) - 1;
    if (left > 0) {
      this.#pending.set(parent, left);
      return;
    }
    this.#pending.delete(parent);
    if (this.#racyFolders.has(parent)) return;
    this.#complete.push(parent);
    this.#completeFiles += this.#state.node(parent)?.files.size ?? 0;
    if (this.#completeFiles >= filesPerChunk) this.flush();
  }

  /** Puts the complete folders not in columns yet into one chunk of columns. */
  flush(): void {
    const nodes = this.#complete.flatMap((rel) => {
      const node = this.#state.node(rel);
      return node === undefined || node instanceof SavedFolder ? [] : [[rel, node] as const];
    });
    this.#complete = [];
    this.#completeFiles = 0;
    if (nodes.length === 0) return;
    const out: { body?: EncodedBody } = {};
    for (const _slice of encodeBody(nodes, Number.POSITIVE_INFINITY, out));
    if (out.body === undefined) return;
    const saved: SavedColumns = { ...out.body.columns, modes, reasons };
    for (const [rel, span] of out.body.spans) this.#state.compactFolder(rel, new SavedFolder(saved, span));
  }
}
