import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isObjectId, writeFileDurably } from '../../git-store';

/** Where pins live: `$VIGIL_HOME/checkpoints/pins.json` (`{ "<dirhash>": ["<commit id>", …] }`). */
export function pinFile(root: string): string {
  return path.join(root, 'pins.json');
}

function parsePins(text: string): Map<string, Set<string>> {
  const pins = new Map<string, Set<string>>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return pins;
  }
  if (typeof value !== 'object' || value === null) return pins;
  for (const [dirhash, ids] of Object.entries(value)) {
    if (!/^[0-9a-f]{16}$/.test(dirhash) || !Array.isArray(ids)) continue;
    const valid = ids.filter((id): id is string => typeof id === 'string' && isObjectId(id));
    if (valid.length > 0) pins.set(dirhash, new Set(valid));
  }
  return pins;
}

/**
 * The pinned checkpoints of every timeline: retention and the size cap never drop them. Read by
 * any process; changed only under the store lock (the caller holds it).
 */
export class PinStore {
  constructor(readonly file: string) {}

  /** Every pin, by directory hash. */
  async all(): Promise<Map<string, Set<string>>> {
    const text = await readFile(this.file, 'utf8').catch(() => '');
    return text === '' ? new Map() : parsePins(text);
  }

  /** Every pinned commit id, whichever directory it belongs to. */
  async ids(): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const pinned of (await this.all()).values()) for (const id of pinned) ids.add(id);
    return ids;
  }

  /** Pins or unpins one checkpoint (the store lock must be held); whether anything changed. */
  async set(dirhash: string, id: string, isPinned: boolean): Promise<boolean> {
    const all = await this.all();
    const pinned = all.get(dirhash) ?? new Set<string>();
    if (pinned.has(id) === isPinned) return false;
    if (isPinned) pinned.add(id);
    else pinned.delete(id);
    if (pinned.size > 0) all.set(dirhash, pinned);
    else all.delete(dirhash);
    const document = Object.fromEntries([...all].map(([hash, ids]) => [hash, [...ids].sort()]));
    await writeFileDurably(this.file, `${JSON.stringify(document, null, 2)}\n`);
    return true;
  }
}
