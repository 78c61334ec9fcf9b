import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { isSameIdentity, readFileIdentity, type FileIdentity } from '../files/file-identity';
import { KeyedLock } from '../files/keyed-lock';
import type { Logger } from '../logging/logger';
import type { CheckpointApi } from './checkpoint-service';

/**
 * Vigil's record of the last version of each file it wrote or deleted itself (agent tools,
 * memory, restores), by file identity (inode, size, mtime and ctime in ns), so a restore plan can
 * tell a file an agent left as it is from one somebody changed afterwards.
 *
 * The rule it supports: a changed file is "changed outside the agents" unless its identity now is
 * exactly the identity recorded right after Vigil's last write of it (or it is missing and Vigil
 * deleted it last). Any later write, rename over it or chmod changes the ctime, so a file that is
 * not flagged really holds what Vigil wrote. Changes Vigil cannot see file by file (an agent's
 * shell command) are flagged too: the flag means "Vigil cannot vouch for this version".
 */
export interface WriteLedger {
  /** Records the current identity (or absence) of files Vigil has just written or deleted. */
  record(absolutePaths: readonly string[]): Promise<void>;
  /**
   * The ledger as it is now, read once: whether a file's identity (undefined: absent) is the
   * version Vigil recorded last for it.
   */
  view(): Promise<(absolutePath: string, identity: FileIdentity | undefined) => boolean>;
}

/** One line of the ledger file. */
interface LedgerLine {
  readonly p: string;
  readonly i: FileIdentity | null;
  readonly t: number;
}

/** The ledger is compacted (last line per path kept) once it grows past this size. */
const compactBytes = 8 * 1024 * 1024;

/** Lines older than this are dropped at compaction: checkpoints are not kept that long. */
const maxAgeMs = 90 * 24 * 60 * 60 * 1000;

function parseLine(line: string): LedgerLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<LedgerLine>;
    return typeof value.p === 'string' && typeof value.t === 'number' && value.i !== undefined ? (value as LedgerLine) : undefined;
  } catch {
    // A line cut short by a crash: the file it named is simply flagged.
    return undefined;
  }
}

/**
 * The ledger kept in one append-only file shared by every Vigil process (`appendFile` appends
 * whole lines). Losing a line (a crash, a compaction racing another process) only makes a file
 * flagged, never unflagged, so the rule stays sound.
 */
export function createWriteLedger(file: string, logger?: Logger): WriteLedger {
  const lock = new KeyedLock();
  let cache: { readonly size: number; readonly mtimeMs: number; readonly last: Map<string, FileIdentity | null> } | undefined;

  async function load(): Promise<Map<string, FileIdentity | null>> {
    const stats = await stat(file).catch(() => undefined);
    if (stats === undefined) return new Map();
    if (cache?.size === stats.size && cache.mtimeMs === stats.mtimeMs) return cache.last;
    const text = await readFile(file, 'utf8').catch(() => '');
    const lines = text.split('\n').map(parseLine).filter((line): line is LedgerLine => line !== undefined);
    const last = new Map<string, FileIdentity | null>(lines.map((line) => [line.p, line.i]));
    if (stats.size > compactBytes) {
      const now = Date.now();
      const kept = new Map(lines.filter((line) => now - line.t < maxAgeMs).map((line) => [line.p, line]));
      await writeFileAtomic(file, [...kept.values()].map((line) => `${JSON.stringify(line)}\n`).join(''));
      return last;
    }
    cache = { size: stats.size, mtimeMs: stats.mtimeMs, last };
    return last;
  }

  return {
    async record(absolutePaths) {
      if (absolutePaths.length === 0) return;
      const now = Date.now();
      const lines = await Promise.all(
        absolutePaths.map(async (target) => {
          const identity = await readFileIdentity(target).catch(() => undefined);
          return `${JSON.stringify({ p: target, i: identity ?? null, t: now } satisfies LedgerLine)}\n`;
        }),
      );
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, lines.join(''));
    },
    async view() {
      const last = await lock.run('load', load).catch((error: unknown) => {
        logger?.warn('the write ledger could not be read; changed files are flagged', { file, error });
        return new Map<string, FileIdentity | null>();
      });
      return (absolutePath, identity) => last.has(absolutePath) && isSameIdentity(last.get(absolutePath) ?? undefined, identity);
    },
  };
}

/**
 * The engine with `noteWritten` also recording into the ledger, so every caller that reports its
 * writes to the engine (agent tools, memory, restores) feeds the ledger without knowing it.
 */
export function recordingWrites(engine: CheckpointApi, ledger: WriteLedger, logger?: Logger): CheckpointApi {
  return new Proxy(engine, {
    get(target, property) {
      if (property === 'noteWritten') {
        return (paths: readonly string[]) => {
          target.noteWritten(paths);
          ledger.record(paths).catch((error: unknown) => logger?.warn('could not record Vigil writes in the ledger', { error }));
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
