/**
 * The PNG-backed .icns element types and the pixel size each holds (Apple's "icns" format:
 * `ic11` is the 16 pt @2x image, `ic10` the 512 pt @2x one, and so on).
 */
export const icnsTypes = [
  { type: 'icp4', pixels: 16 },
  { type: 'icp5', pixels: 32 },
  { type: 'ic11', pixels: 32 },
  { type: 'icp6', pixels: 64 },
  { type: 'ic12', pixels: 64 },
  { type: 'ic07', pixels: 128 },
  { type: 'ic08', pixels: 256 },
  { type: 'ic13', pixels: 256 },
  { type: 'ic09', pixels: 512 },
  { type: 'ic14', pixels: 512 },
  { type: 'ic10', pixels: 1024 },
] as const;

/** One element of an .icns file. */
export interface IcnsElement {
  readonly type: string;
  readonly data: Buffer;
}

/** Encodes a macOS .icns from PNG elements. */
export function encodeIcns(elements: readonly IcnsElement[]): Buffer {
  const parts = elements.map((element) => {
    const head = Buffer.alloc(8);
    head.write(element.type, 0, 'latin1');
    head.writeUInt32BE(element.data.length + 8, 4);
    return Buffer.concat([head, element.data]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(8 + parts.reduce((total, part) => total + part.length, 0), 4);
  return Buffer.concat([header, ...parts]);
}

/** Reads the elements of an .icns file. */
export function readIcns(file: Buffer): readonly IcnsElement[] {
  if (file.toString('latin1', 0, 4) !== 'icns' || file.readUInt32BE(4) !== file.length)
    throw new Error('not an .icns file');
  const elements: IcnsElement[] = [];
  for (let offset = 8; offset < file.length;) {
    const length = file.readUInt32BE(offset + 4);
    if (length < 8) throw new Error('corrupt .icns element');
    elements.push({
      type: file.toString('latin1', offset, offset + 4),
      data: file.subarray(offset + 8, offset + length),
    });
    offset += length;
  }
  return elements;
}
