import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { SkipReason } from './checkpoint-types';
import { quotePath, unquotePath } from './commit-message';
import { DirState } from './dir-state';
import { writeFileDurably } from './durable-file';
import { fileModes, type FileMode } from './git-objects';

const magic = 'vigil-stat-cache 1';
const modes = new Set<string>([fileModes.file, fileModes.executable, fileModes.symlink]);
const reasons = new Set<string>(['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name']);

/** What the stat cache file says about itself. */
interface CacheHeader {
  readonly dir: string;
  readonly head: string | undefined;
  readonly stampNs: string;
}

/**
 * Saves a directory's state: a header line, then one line per file (`F path mode oid size mtime
 * ctime ino`), folder (`D path tree`) and skipped path (`S path reason`), tab-separated. It is
 * built in slices that yield to the event loop, and replaces the old file in one rename.
 */
export async function saveStatCache(file: string, dir: string, state: DirState): Promise<void> {
  const header: CacheHeader = { dir, head: state.head, stampNs: state.stampNs.toString() };
  // Encoded a thousand lines at a time, yielding between chunks: a 50,000-file cache written in
  // one go held the event loop for a quarter of a second.
  const chunks: Buffer[] = [];
  let lines: string[] = [magic, JSON.stringify(header)];
  const flush = async (): Promise<void> => {
    chunks.push(Buffer.from(`${lines.join('\n')}\n`));
    lines = [];
    await yieldToLoop();
  };
  for (const [rel, record] of state.files()) {
    lines.push(`F\t${quotePath(rel)}\t${record.mode}\t${record.oid}\t${record.size}\t${record.mtimeNs}\t${record.ctimeNs}\t${record.ino}`);
    if (lines.length >= linesPerChunk) await flush();
  }
  for (const [rel, tree] of state.folders()) {
    lines.push(`D\t${quotePath(rel)}\t${tree ?? '-'}`);
    if (lines.length >= linesPerChunk) await flush();
  }
  for (const skipped of state.skippedPaths()) lines.push(`S\t${quotePath(skipped.path)}\t${skipped.reason}`);
  if (lines.length > 0) chunks.push(Buffer.from(`${lines.join('\n')}\n`));
  await writeFileDurably(file, Buffer.concat(chunks), { sync: false });
}

/** How many stat-cache lines are encoded between yields to the event loop. */
const linesPerChunk = 1_000;

/**
 * Loads a saved state; undefined when there is none, it belongs to another directory, or it is
 * damaged in any way (the caller then walks the directory from scratch: slower, never wrong).
 */
export async function loadStatCache(file: string, dir: string): Promise<DirState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return await parse(text, dir);
  } catch {
    return undefined;
  }
}

async function parse(text: string, dir: string): Promise<DirState | undefined> {
  const lines = text.split('\n');
  if (lines[0] !== magic || lines.at(-1) !== '') return undefined;
  const header = JSON.parse(lines[1] ?? '') as Partial<CacheHeader>;
  if (header.dir !== dir || typeof header.stampNs !== 'string') return undefined;
  const state = new DirState();
  const trees: Array<[string, string]> = [];
  for (let index = 2; index < lines.length - 1; index += 1) {
    const fields = (lines[index] ?? '').split('\t');
    const [kind, quoted = ''] = fields;
    const rel = unquotePath(quoted);
    if (kind === 'F' && fields.length === 8) {
      const [, , mode = '', oid = '', size = '', mtime = '', ctime = '', ino = ''] = fields;
      if (!modes.has(mode) || !/^[0-9a-f]{40}$/.test(oid)) return undefined;
      state.setFile(rel, { mode: mode as FileMode, oid, size: Number(size), mtimeNs: BigInt(mtime), ctimeNs: BigInt(ctime), ino: BigInt(ino) });
    } else if (kind === 'D' && fields.length === 3) {
      state.ensureFolder(rel);
      const tree = fields[2] ?? '-';
      if (tree !== '-') trees.push([rel, tree]);
    } else if (kind === 'S' && fields.length === 3) {
      const reason = fields[2] ?? '';
      if (!reasons.has(reason)) return undefined;
      const isFolder = rel.endsWith('/');
      state.setSkipped(isFolder ? rel.slice(0, -1) : rel, reason as SkipReason, isFolder);
    } else {
      return undefined;
    }
    if (index % linesPerChunk === 0) await yieldToLoop();
  }
  // Tree ids are trusted only when recorded for every folder (they were saved right after a build).
  for (const [rel, tree] of trees) {
    const node = state.node(rel);
    if (node !== undefined) node.tree = tree;
  }
  if ([...state.folders()].some(([, tree]) => tree === undefined)) state.invalidateTrees();
  state.head = header.head;
  state.stampNs = BigInt(header.stampNs);
  return state;
}
