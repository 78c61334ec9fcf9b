import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One file inside an asar archive. */
export interface AsarFile {
  /** Path inside the archive, with a leading slash and forward slashes. */
  readonly path: string;
  readonly size: number;
  /** Stored outside the archive in `app.asar.unpacked`. */
  readonly isUnpacked: boolean;
}

/** An asar archive opened for inspection. */
export interface AsarArchive {
  readonly files: readonly AsarFile[];
  /** The bytes of a file: packed, or (unpacked) from the `app.asar.unpacked` folder beside the archive. */
  read(path: string): Buffer;
}

interface HeaderNode {
  readonly files?: Readonly<Record<string, HeaderNode>>;
  readonly size?: number;
  readonly offset?: string;
  readonly unpacked?: boolean;
  readonly link?: string;
}

/**
 * Reads an asar archive (Electron's format: a Chromium pickle holding the JSON header, then the
 * file data). Written here rather than taken from @electron/asar so the check does not trust the
 * same library that wrote the archive.
 */
export function openAsar(file: string): AsarArchive {
  const bytes = readFileSync(file);
  // [uint32 4][uint32 headerPickleSize] then the header pickle: [uint32 payloadSize][uint32 jsonLength][json]
  const headerPickleSize = bytes.readUInt32LE(4);
  const jsonLength = bytes.readUInt32LE(12);
  const header = JSON.parse(bytes.toString('utf8', 16, 16 + jsonLength)) as HeaderNode;
  const dataStart = 8 + headerPickleSize;
  const files: AsarFile[] = [];
  const offsets = new Map<string, { offset: number; size: number }>();

  const walk = (node: HeaderNode, prefix: string): void => {
    for (const [name, child] of Object.entries(node.files ?? {})) {
      const childPath = `${prefix}/${name}`;
      if (child.files !== undefined) {
        walk(child, childPath);
      } else if (child.link === undefined) {
        const size = child.size ?? 0;
        files.push({ path: childPath, size, isUnpacked: child.unpacked === true });
        if (child.offset !== undefined) offsets.set(childPath, { offset: Number(child.offset), size });
      }
    }
  };
  walk(header, '');

  const unpackedDir = `${file}.unpacked`;
  const unpacked = new Set(files.filter((entry) => entry.isUnpacked).map((entry) => entry.path));
  return {
    files,
    read(inner) {
      if (unpacked.has(inner)) {
        const onDisk = path.join(unpackedDir, ...inner.split('/'));
        if (!existsSync(onDisk)) throw new Error(`${inner} is marked unpacked in ${file} but is not in ${unpackedDir}`);
        return readFileSync(onDisk);
      }
      const found = offsets.get(inner);
      if (found === undefined) throw new Error(`${inner} is not packed in ${file}`);
      return bytes.subarray(dataStart + found.offset, dataStart + found.offset + found.size);
    },
  };
}
