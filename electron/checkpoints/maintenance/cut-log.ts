import { appendFile, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CutRecord } from '../../../shared/contract/checkpoints-live-contract';
import type { Logger } from '../../logging';
import type { CheckpointAnnouncer } from '../events/checkpoint-announcer';
import { writeFileDurably } from '../../git-store';

/** Where cuts are recorded: `$VIGIL_HOME/checkpoints/cuts.jsonl`, one JSON record per line, oldest first. */
export function cutLogFile(root: string): string {
  return path.join(root, 'cuts.jsonl');
}

/** Past this size the log is trimmed to its newest `keptLines` records. */
const maxBytes = 512 * 1024;
const keptLines = 500;

/** A line of the log: the record, and which process wrote it (so a core does not announce its own cuts twice). */
interface CutLine extends CutRecord {
  readonly pid: number;
}

function parseLine(line: string): CutLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<CutLine>;
    if (
      typeof value.dir !== 'string' ||
      typeof value.dropped !== 'number' ||
      typeof value.at !== 'string' ||
      typeof value.reason !== 'string'
    )
      return undefined;
    return value as CutLine;
  } catch {
    return undefined;
  }
}

function withoutPid({ pid: _pid, ...record }: CutLine): CutRecord {
  return record;
}

/**
 * The record of every cut (retention, size cap, prune): how many checkpoints of which directory,
 * when and why. Each is appended to the log file (the store lock is held), written to Vigil's log
 * and, in a process with a UI, sent as a `checkpoints:cut` event. Nothing is dropped without one.
 */
export class CutLog {
  constructor(
    readonly file: string,
    private readonly logger: Logger,
    private readonly announcer?: CheckpointAnnouncer,
  ) {}

  /** Records a cut everywhere it must show. */
  async record(record: CutRecord): Promise<void> {
    this.logger.warn(record.message, {
      dir: record.dir,
      dropped: record.dropped,
      kept: record.kept,
      reason: record.reason,
    });
    try {
      await appendFile(this.file, `${JSON.stringify({ ...record, pid: process.pid } satisfies CutLine)}\n`);
      await this.#trim();
    } catch (error) {
      this.logger.error('could not write the cut to the cut log', { file: this.file, error });
    }
    this.announcer?.cut(record);
  }

  /** The newest cuts first, at most `limit`, only of `dirhash` when given. */
  async recent(limit: number, dirhash?: string): Promise<CutRecord[]> {
    const lines = (await readFile(this.file, 'utf8').catch(() => '')).split('\n');
    const records: CutRecord[] = [];
    for (let index = lines.length - 1; index >= 0 && records.length < limit; index -= 1) {
      const parsed = parseLine(lines[index] ?? '');
      if (parsed !== undefined && (dirhash === undefined || parsed.dirhash === dirhash))
        records.push(withoutPid(parsed));
    }
    return records;
  }

  /** The records other processes appended after `offset` (bytes), and the offset to read from next. */
  async readFrom(offset: number): Promise<{ readonly records: readonly CutRecord[]; readonly next: number }> {
    const size = await stat(this.file).then(
      (info) => info.size,
      () => 0,
    );
    // Trimmed (or removed) since: start over from the beginning of what is there now.
    const start = size < offset ? 0 : offset;
    if (size === start) return { records: [], next: size };
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      const text = buffer.toString('utf8');
      const complete = text.lastIndexOf('\n') + 1;
      const records = text
        .slice(0, complete)
        .split('\n')
        .map(parseLine)
        .filter((line): line is CutLine => line !== undefined && line.pid !== process.pid)
        .map(withoutPid);
      return { records, next: start + Buffer.byteLength(text.slice(0, complete)) };
    } finally {
      await handle.close();
    }
  }

  /** The size of the log now (where a watcher starts reading). */
  async size(): Promise<number> {
    return stat(this.file).then(
      (info) => info.size,
      () => 0,
    );
  }

  async #trim(): Promise<void> {
    const size = await this.size();
    if (size <= maxBytes) return;
    const lines = (await readFile(this.file, 'utf8')).split('\n').filter((line) => line !== '');
    await writeFileDurably(this.file, `${lines.slice(-keptLines).join('\n')}\n`);
  }
}
