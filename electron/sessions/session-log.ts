import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { sessionRecordSchema, type SessionRecord } from './session-records';

/** A line of a log that could not be used, and why. */
export interface LogProblem {
  /** 1-based line number. */
  readonly line: number;
  /** torn: the last line was cut short (a crash while writing); corrupt: a line that is not a record. */
  readonly kind: 'torn' | 'corrupt';
  readonly message: string;
}

/** What reading a log found. */
export interface LogContents {
  /** The records, when no `onRecord` callback took them as they were read. */
  readonly records: readonly SessionRecord[];
  readonly problems: readonly LogProblem[];
  /** The file does not end with a newline: the next append must start a new line first. */
  readonly isTorn: boolean;
}

/** Splits a file into lines as it streams, never holding more than one line; resolves whether the last line lacks its newline. */
async function forEachLine(
  file: string,
  onLine: (line: string, index: number, hasNewline: boolean) => void,
): Promise<boolean> {
  let pending: Buffer[] = [];
  let index = 0;
  for await (const chunk of createReadStream(file)) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (let newline = buffer.indexOf(0x0a, start); newline !== -1; newline = buffer.indexOf(0x0a, start)) {
      pending.push(buffer.subarray(start, newline));
      onLine(Buffer.concat(pending).toString('utf8'), index, true);
      index += 1;
      pending = [];
      start = newline + 1;
    }
    if (start < buffer.length) pending.push(buffer.subarray(start));
  }
  if (pending.length === 0) return false;
  onLine(Buffer.concat(pending).toString('utf8'), index, false);
  return true;
}

/**
 * Reads a session log as a stream, one line at a time, so a long log never sits in memory whole.
 * Every complete, valid line is a record, given to `onRecord` (or collected when it is absent); a
 * last line without its newline is a torn write from a crash (reported, never fatal); any other
 * bad line is reported as corrupt and skipped. The file is never modified by reading.
 */
export async function readSessionLog(file: string, onRecord?: (record: SessionRecord) => void): Promise<LogContents> {
  const records: SessionRecord[] = [];
  const problems: LogProblem[] = [];
  const deliver = onRecord ?? ((record: SessionRecord) => records.push(record));
  const isTorn = await forEachLine(file, (line, index, hasNewline) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      problems.push(
        hasNewline
          ? { line: index + 1, kind: 'corrupt', message: `line ${index + 1} is not valid JSON; it was skipped` }
          : {
              line: index + 1,
              kind: 'torn',
              message: `line ${index + 1} was cut short (${line.length} characters), most likely by a crash while it was written; it was skipped`,
            },
      );
      return;
    }
    const record = sessionRecordSchema.safeParse(parsed);
    if (record.success) deliver(record.data);
    else
      problems.push({
        line: index + 1,
        kind: 'corrupt',
        message: `line ${index + 1} is not a session record (${record.error.issues[0]?.message ?? 'invalid'}); it was skipped`,
      });
  });
  return { records, problems, isTorn };
}

/**
 * Appends records to one session log: `append` resolves once the line is written and, unless
 * `durable: false`, fdatasync'ed (a written line survives a killed process; a synced one survives
 * a power cut too). Appends that arrive while a flush runs are written together by the next one
 * (group commit), so concurrent tool calls share fsyncs without ever reordering lines.
 */
export class SessionLogWriter {
  readonly #file: string;
  #handle: Promise<FileHandle> | undefined;
  #needsNewline: boolean;
  #queued: { line: string; isDurable: boolean; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;

  /** `isTorn`: the file ends in a cut-off line, which must stay on its own line (it is evidence). */
  constructor(file: string, options: { readonly isTorn?: boolean } = {}) {
    this.#file = file;
    this.#needsNewline = options.isTorn ?? false;
  }

  /** Writes one record; resolves when it is written, and synced unless `durable` is false. */
  append(record: SessionRecord, options: { readonly durable?: boolean } = {}): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    return new Promise((resolve, reject) => {
      this.#queued.push({ line, isDurable: options.durable ?? true, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    await this.#flushing;
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle).close();
  }

  async #flush(): Promise<void> {
    while (this.#queued.length > 0) {
      const batch = this.#queued;
      this.#queued = [];
      try {
        this.#handle ??= open(this.#file, 'a', 0o600);
        const handle = await this.#handle;
        const prefix = this.#needsNewline ? '\n' : '';
        await handle.appendFile(prefix + batch.map((item) => item.line).join(''), 'utf8');
        this.#needsNewline = false;
        for (const item of batch) if (!item.isDurable) item.resolve();
        if (batch.some((item) => item.isDurable)) await handle.datasync();
        for (const item of batch) if (item.isDurable) item.resolve();
      } catch (error) {
        // A failed append may have left part of a line: start the next one on a fresh line.
        this.#needsNewline = true;
        const failed = this.#handle;
        this.#handle = undefined;
        void failed?.then((handle) => handle.close()).catch(() => undefined);
        for (const item of batch) item.reject(error);
      }
    }
    this.#flushing = undefined;
  }
}
