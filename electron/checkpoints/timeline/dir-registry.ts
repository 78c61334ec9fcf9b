import { mkdir, readdir, readFile } from 'node:fs/promises';
import { registryFile, type StoreLayout, writeFileDurably } from '../../git-store';

/** What the registry records about a checkpointed directory (`checkpoints/dirs/<dirhash>.json`). */
export interface RegistryRecord {
  readonly workdir: string;
  readonly createdAt: string;
  readonly lastTouch: string;
}

function parseRecord(text: string): RegistryRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof RegistryRecord, unknown>>;
    const { workdir, createdAt, lastTouch } = value;
    if (typeof workdir !== 'string' || typeof createdAt !== 'string' || typeof lastTouch !== 'string') return undefined;
    return { workdir, createdAt, lastTouch };
  } catch {
    return undefined;
  }
}

/** The registry of checkpointed directories: which path each `<dirhash>` stands for. */
export class DirRegistry {
  constructor(private readonly layout: StoreLayout) {}

  /** The record of one directory, if it was ever checkpointed. */
  async read(dirhash: string): Promise<RegistryRecord | undefined> {
    const text = await readFile(registryFile(this.layout, dirhash), 'utf8').catch(() => undefined);
    return text === undefined ? undefined : parseRecord(text);
  }

  /**
   * Records a checkpoint of a directory now (creating its record the first time); with
   * `unlessWithinMs`, a record of the same directory touched that recently is left as it is (a
   * read instead of a write and a rename: a one-shot process cannot remember its last touch).
   */
  async touch(
    dirhash: string,
    workdir: string,
    options: { readonly at?: Date; readonly unlessWithinMs?: number } = {},
  ): Promise<RegistryRecord> {
    const at = options.at ?? new Date();
    const previous = await this.read(dirhash);
    const age = previous === undefined ? Number.NaN : at.getTime() - Date.parse(previous.lastTouch);
    if (previous?.workdir === workdir && age >= 0 && age < (options.unlessWithinMs ?? 0)) return previous;
    const record: RegistryRecord = {
      workdir,
      createdAt: previous?.createdAt ?? at.toISOString(),
      lastTouch: at.toISOString(),
    };
    await mkdir(this.layout.registryDir, { recursive: true });
    await writeFileDurably(registryFile(this.layout, dirhash), `${JSON.stringify(record, null, 2)}\n`, { sync: false });
    return record;
  }

  /** Every registered directory by hash. */
  async list(): Promise<Map<string, RegistryRecord>> {
    const records = new Map<string, RegistryRecord>();
    const names = await readdir(this.layout.registryDir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => /^[0-9a-f]{16}\.json$/.test(name))
        .map(async (name) => {
          const record = await this.read(name.slice(0, 16));
          if (record !== undefined) records.set(name.slice(0, 16), record);
        }),
    );
    return records;
  }
}
