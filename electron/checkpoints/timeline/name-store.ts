import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { isDisplayControl } from '../../../shared/text/control-characters';
import { resolveTimelineDirectory } from '../checkpoint-directory';
import { resolveCheckpoint, type QueryContext } from '../checkpoint-queries';
import type { CheckpointEntry } from '../checkpoint-types';
import { dirHash, isObjectId, writeFileDurably } from '../../git-store';

/**
 * Names people give checkpoints. A commit never changes (its id is what everything else refers
 * to), so names are kept beside the commits: one small file per directory,
 * `$VIGIL_HOME/checkpoints/names/<dirhash>.json` (`{ "<commit id>": "name" }`), replaced in one
 * atomic step under the store lock and read by any process. Unlike a git note, a rename then costs
 * no commit, no ref and nothing the store's garbage collection must learn to keep.
 */

/** Where the names of one directory's checkpoints live. */
export function nameFile(root: string, dirhash: string): string {
  return path.join(root, 'names', `${dirhash}.json`);
}

/** The longest name kept. */
export const maxNameLength = 200;

function parseNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return names;
  }
  if (typeof value !== 'object' || value === null) return names;
  for (const [id, name] of Object.entries(value))
    if (isObjectId(id) && typeof name === 'string' && name !== '') names.set(id, name);
  return names;
}

/** A name as kept: trimmed; refused when it holds control characters or is too long. */
export function normalizeName(name: string): string {
  const trimmed = name.trim();
  if (Array.from(trimmed, (character) => character.codePointAt(0) ?? 0).some(isDisplayControl)) {
    throw new AppError(
      'invalid_request',
      'A checkpoint name is one line of text without control characters (no newlines or tabs). Type it again without them.',
      { field: 'name' },
    );
  }
  if (trimmed.length > maxNameLength)
    throw new AppError(
      'invalid_request',
      `A checkpoint name is at most ${maxNameLength} characters; this one has ${trimmed.length}.`,
      { field: 'name' },
    );
  return trimmed;
}

/** The names of checkpoints, per directory. */
export class NameStore {
  constructor(readonly root: string) {}

  /** The names of one directory's checkpoints, by commit id. */
  async of(dirhash: string): Promise<Map<string, string>> {
    const text = await readFile(nameFile(this.root, dirhash), 'utf8').catch(() => '');
    return text === '' ? new Map() : parseNames(text);
  }

  /** Names (or, with `''`, un-names) one checkpoint; the store lock must be held. Whether anything changed. */
  async set(dirhash: string, id: string, name: string): Promise<boolean> {
    const names = await this.of(dirhash);
    if ((names.get(id) ?? '') === name) return false;
    if (name === '') names.delete(id);
    else names.set(id, name);
    const file = nameFile(this.root, dirhash);
    await mkdir(path.dirname(file), { recursive: true });
    const document = Object.fromEntries([...names].sort(([a], [b]) => (a < b ? -1 : 1)));
    await writeFileDurably(file, `${JSON.stringify(document, null, 2)}\n`);
    return true;
  }
}

/** Entries with their names. */
export function markNamed(
  entries: readonly CheckpointEntry[],
  names: ReadonlyMap<string, string>,
): readonly CheckpointEntry[] {
  if (names.size === 0) return entries;
  return entries.map((entry) => {
    const name = names.get(entry.id);
    return name === undefined ? entry : { ...entry, name };
  });
}

/** A rename as it was applied. */
export interface RenameOutcome {
  readonly dir: string;
  readonly id: string;
  /** The name now (absent: none). */
  readonly name?: string;
  /** False when the checkpoint already had that name. */
  readonly changed: boolean;
}

/** Names checkpoint `ref` of `dir` (a number from the list, or an id); `''` takes its name away. The store lock must be held. */
export async function setName(
  context: QueryContext,
  names: NameStore,
  dir: string,
  ref: string,
  name: string,
): Promise<RenameOutcome> {
  const kept = normalizeName(name);
  const entry = await resolveCheckpoint(context, await resolveTimelineDirectory(dir), ref);
  const changed = await names.set(dirHash(entry.dir), entry.id, kept);
  return { dir: entry.dir, id: entry.id, ...(kept === '' ? {} : { name: kept }), changed };
}
