import { appendFile, mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { actorSchema } from '../../../shared/contract/actor-contract';
import { isSameActor, type Actor } from '../../../shared/contract/actor-model';
import { type FileIdentity, isSameIdentity, KeyedLock, readFileIdentity, writeFileAtomic } from '../../files';
import type { Logger } from '../../logging';
import type { CheckpointApi } from '../checkpoint-service';
import { withOwnAppend, type LastVersion, type LedgerCache } from './restore-ledger-cache';

/** Who wrote a version Vigil recorded, and when (ms since the epoch). */
export interface LedgerRecord {
  readonly actor: Actor;
  readonly at: number;
  /** The restore point of the restore that wrote this version (a restore's writes only): its undo may delete it. */
  readonly restorePoint?: string;
}

/** A file's version as a caller observed it (a terminal command's effects, found by comparing walks): its identity, or undefined when it is gone. */
export interface ObservedVersion {
  readonly path: string;
  readonly identity: FileIdentity | undefined;
}

/** Whether a file's identity now (undefined: absent) is the version Vigil recorded last for it, and who wrote that version. */
export type LedgerView = (absolutePath: string, identity: FileIdentity | undefined) => LedgerRecord | undefined;

/**
 * Vigil's record of the last version of each file it wrote or deleted itself, and who did it:
 * an agent session's tools (file tools, every file effect of a terminal command, the memory tool),
 * the person in the app or the CLI (restores and their undo, rewinds, memory adoption), or Vigil
 * on its own. Versions are identified by file identity (inode, size, mtime and ctime in ns), so a
 * restore plan can tell a file a Vigil actor left as it is from one somebody changed afterwards.
 *
 * The rule it supports: a changed file is "changed outside Vigil" unless its identity now is
 * exactly the identity recorded right after a Vigil actor's last write of it (or it is missing and
 * a Vigil actor deleted it last), and then that actor is who changed it. Any later write, rename
 * over it or chmod changes the ctime, so a file that is not flagged really holds what was recorded.
 */
export interface WriteLedger {
  /** Records the current identity (or absence) of files `actor` has just written or deleted. */
  record(absolutePaths: readonly string[], actor: Actor): Promise<void>;
  /**
   * Records versions `actor` made as the caller observed them (not read again: a later edit by someone else stays
   * theirs); a restore names its restore point.
   */
  recordObserved(versions: readonly ObservedVersion[], actor: Actor, restorePoint?: string): Promise<void>;
  /** The ledger as it is now (after this process's records in flight), read once. */
  view(): Promise<LedgerView>;
}

/** One line of the ledger file. */
interface LedgerLine {
  readonly p: string;
  readonly i: FileIdentity | null;
  readonly t: number;
  /** Who wrote it (absent in lines written before actors were recorded: Vigil's, for whomever). */
  readonly a?: Actor;
  /** The restore point of the restore that wrote it. */
  readonly r?: string;
}

const vigilActor: Actor = { kind: 'vigil' };

/** The ledger is compacted (last line per path kept) once it grows past this size. */
const compactBytes = 8 * 1024 * 1024;

/** Lines older than this are dropped at compaction: checkpoints are not kept that long. */
const maxAgeMs = 90 * 24 * 60 * 60 * 1000;

function parseLine(line: string): LedgerLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<LedgerLine>;
    if (typeof value.p !== 'string' || typeof value.t !== 'number' || value.i === undefined) return undefined;
    const actor = value.a === undefined ? undefined : actorSchema.safeParse(value.a);
    return {
      p: value.p,
      i: value.i,
      t: value.t,
      ...(actor?.success === true ? { a: actor.data } : {}),
      ...(typeof value.r === 'string' && { r: value.r }),
    };
  } catch {
    // A line cut short by a crash: the file it named is simply flagged.
    return undefined;
  }
}

/** The file's text from byte `from` on, and how many of its bytes end in a newline (whole lines). */
async function readFrom(
  file: string,
  from: number,
): Promise<{ readonly text: string; readonly completeBytes: number }> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return { text: '', completeBytes: 0 };
  const chunks: Buffer[] = [];
  try {
    for (let position = from; ;) {
      const chunk = Buffer.allocUnsafe(256 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const tail = Buffer.concat(chunks);
  const completeBytes = tail.lastIndexOf(0x0a) + 1;
  return { text: tail.toString('utf8', 0, completeBytes), completeBytes };
}

/** Rewrites the ledger with only the last line per path, dropping lines older than checkpoints live. */
async function compact(file: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const now = Date.now();
  const lines = text
    .split('\n')
    .map(parseLine)
    .filter((line): line is LedgerLine => line !== undefined && now - line.t < maxAgeMs);
  const kept = new Map(lines.map((line) => [line.p, line]));
  await writeFileAtomic(file, [...kept.values()].map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** Where the write ledger lives under `$VIGIL_HOME/checkpoints` (a folder snapshots never enter). */
export function writeLedgerFile(root: string): string {
  return path.join(root, 'written.jsonl');
}

/**
 * The ledger kept in one append-only file shared by every Vigil process (`appendFile` appends
 * whole lines). Losing a line (a crash, a compaction racing another process) only makes a file
 * flagged, never unflagged, so the rule stays sound.
 */
export function createWriteLedger(file: string, logger?: Logger): WriteLedger {
  const lock = new KeyedLock();
  let cache: LedgerCache | undefined;
  // Records of this process not yet appended: a view waits for them, so a plan made right after a write sees it.
  const inFlight = new Set<Promise<void>>();

  async function load(): Promise<ReadonlyMap<string, LastVersion>> {
    const stats = await stat(file).catch(() => undefined);
    if (stats === undefined) return new Map();
    if (cache?.ino === stats.ino && cache.size === stats.size && cache.mtimeMs === stats.mtimeMs) return cache.last;
    // The same file grown by appends: only the new lines are read. Anything else (a compaction's new file, a shorter one): all of it.
    const isGrown = cache !== undefined && cache.ino === stats.ino && stats.size >= cache.consumed;
    const from = isGrown && cache !== undefined ? cache.consumed : 0;
    const read = await readFrom(file, from);
    const lines = read.text
      .split('\n')
      .slice(0, -1)
      .map(parseLine)
      .filter((line): line is LedgerLine => line !== undefined);
    const last = new Map<string, LastVersion>(isGrown && cache !== undefined ? cache.last : []);
    for (const line of lines) {
      const restorePoint = line.r === undefined ? {} : { restorePoint: line.r };
      last.set(line.p, { identity: line.i, record: { actor: line.a ?? vigilActor, at: line.t, ...restorePoint } });
    }
    if (stats.size > compactBytes) {
      cache = undefined;
      await compact(file);
      return last;
    }
    // A line still being appended (no newline yet) is read again next time.
    cache = { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, consumed: from + read.completeBytes, last };
    return last;
  }

  const append = (versions: readonly ObservedVersion[], actor: Actor, restorePoint?: string): Promise<void> => {
    if (versions.length === 0) return Promise.resolve();
    const now = Date.now();
    const origin = restorePoint === undefined ? {} : { r: restorePoint };
    const text = versions
      .map(
        (version) =>
          `${JSON.stringify({ p: version.path, i: version.identity ?? null, t: now, a: actor, ...origin } satisfies LedgerLine)}\n`,
      )
      .join('');
    const pending = mkdir(path.dirname(file), { recursive: true })
      .then(() => appendFile(file, text))
      .then(() =>
        lock.run('load', async () => {
          const appended = { versions, actor, at: now, bytes: Buffer.byteLength(text), restorePoint };
          const stats = await stat(file).catch(() => undefined);
          if (stats !== undefined && stats.size <= compactBytes) cache = withOwnAppend(cache, stats, appended) ?? cache;
        }),
      );
    inFlight.add(pending);
    const settle = (): void => {
      inFlight.delete(pending);
    };
    pending.then(settle, settle);
    return pending;
  };

  return {
    async record(absolutePaths, actor) {
      const versions = await Promise.all(
        absolutePaths.map(async (target) => ({
          path: target,
          identity: await readFileIdentity(target).catch(() => undefined),
        })),
      );
      await append(versions, actor);
    },
    recordObserved: append,
    async view() {
      await Promise.allSettled([...inFlight]);
      const last = await lock.run('load', load).catch((error: unknown) => {
        logger?.warn('the write ledger could not be read; changed files are flagged', { file, error });
        return new Map<string, LastVersion>();
      });
      return (absolutePath, identity) => {
        const found = last.get(absolutePath);
        return found !== undefined && isSameIdentity(found.identity ?? undefined, identity) ? found.record : undefined;
      };
    },
  };
}

/**
 * The one listener through which Vigil's writes reach the write ledger: the engine learns the paths
 * (its dirty set) and the ledger records their actor (Vigil's when none is named). Its promise
 * settles once the ledger holds them.
 */
export function writesListener(
  engine: Pick<CheckpointApi, 'noteWritten'>,
  ledger: WriteLedger,
): (paths: readonly string[], actor?: Actor) => Promise<void> {
  return (paths, actor) => {
    engine.noteWritten(paths);
    return ledger.record(paths, actor ?? vigilActor);
  };
}

/** The part of the engine that memory and the agents' tools write through. */
export type RecordingCheckpoints = Pick<
  CheckpointApi,
  'checkpoint' | 'noteWritten' | 'resolve' | 'readTree' | 'readBlob'
>;

/**
 * The engine as memory and the agents' tools use it, its `noteWritten(paths, actor)` going through
 * the writes listener, so every caller that reports its writes to the engine feeds the one ledger.
 */
export function recordingWrites(engine: CheckpointApi, ledger: WriteLedger, logger?: Logger): RecordingCheckpoints {
  const recordWrites = writesListener(engine, ledger);
  return {
    checkpoint: (dir, request) => engine.checkpoint(dir, request),
    resolve: (dir, ref, lookup) => engine.resolve(dir, ref, lookup),
    readTree: (treeOid) => engine.readTree(treeOid),
    readBlob: (oid) => engine.readBlob(oid),
    noteWritten: (paths, actor) => {
      recordWrites(paths, actor).catch((error: unknown) =>
        logger?.warn('could not record Vigil writes in the ledger', { error }),
      );
    },
  };
}

/** How the executor reports the changes an agent's call made: the engine's dirty set and the one ledger, with the actor. */
export interface WriteRecorder {
  /** `actor` has just written or deleted these files (their versions are read now). */
  record(absolutePaths: readonly string[], actor: Actor): Promise<void>;
  /**
   * `actor` made these versions, as walks before and after it found them (a terminal command).
   * A version that another actor recorded at or after `since` (a restore, the app, another
   * process, while the command ran) stays theirs; the paths recorded as `actor`'s are returned.
   */
  recordObserved(versions: readonly ObservedVersion[], actor: Actor, since: number): Promise<readonly string[]>;
}

/** The write recorder over an engine (its dirty set) and the one write ledger. */
export function createWriteRecorder(engine: Pick<CheckpointApi, 'noteWritten'>, ledger: WriteLedger): WriteRecorder {
  const recordWrites = writesListener(engine, ledger);
  return {
    record: recordWrites,
    async recordObserved(versions, actor, since) {
      engine.noteWritten(versions.map((version) => version.path));
      const current = await ledger.view();
      const own = versions.filter((version) => {
        const recorded = current(version.path, version.identity);
        return recorded === undefined || recorded.at < since || isSameActor(recorded.actor, actor);
      });
      await ledger.recordObserved(own, actor);
      return own.map((version) => version.path);
    },
  };
}
