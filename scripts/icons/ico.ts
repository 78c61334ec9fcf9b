import { encodePng, type RgbaImage } from './png';

/**
 * A 32-bit BMP (DIB) entry: BITMAPINFOHEADER, BGRA rows bottom-up, then the 1-bit AND mask.
 * Sizes below 256 use this form because some Windows tools (NSIS among them) reject PNG entries.
 */
function dibEntry(image: RgbaImage): Buffer {
  const { width, height, pixels } = image;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const colors = Buffer.alloc(width * height * 4);
  const maskStride = Math.ceil(width / 32) * 4;
  const mask = Buffer.alloc(maskStride * height);
  for (let row = 0; row < height; row += 1) {
    const target = height - 1 - row;
    for (let column = 0; column < width; column += 1) {
      const from = (row * width + column) * 4;
      const to = (target * width + column) * 4;
      colors[to] = pixels[from + 2] ?? 0;
      colors[to + 1] = pixels[from + 1] ?? 0;
      colors[to + 2] = pixels[from] ?? 0;
      const alpha = pixels[from + 3] ?? 0;
      colors[to + 3] = alpha;
      if (alpha === 0) {
        const byte = target * maskStride + (column >> 3);
        mask[byte] = (mask[byte] ?? 0) | (0x80 >> (column & 7));
      }
    }
  }
  return Buffer.concat([header, colors, mask]);
}

/** Encodes square images (up to 256 px) as a Windows .ico: BMP entries below 256 px, PNG at 256. */
export function encodeIco(images: readonly RgbaImage[]): Buffer {
  const entries = images.map((image) => {
    if (image.width !== image.height || image.width > 256)
      throw new Error(`an .ico entry must be square and at most 256 px, not ${image.width}×${image.height}`);
    return { size: image.width, data: image.width === 256 ? encodePng(image) : dibEntry(image) };
  });
  const directory = Buffer.alloc(6 + 16 * entries.length);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(entries.length, 4);
  let offset = directory.length;
  entries.forEach((entry, index) => {
    const at = 6 + index * 16;
    directory.writeUInt8(entry.size === 256 ? 0 : entry.size, at);
    directory.writeUInt8(entry.size === 256 ? 0 : entry.size, at + 1);
    directory.writeUInt16LE(1, at + 4);
    directory.writeUInt16LE(32, at + 6);
    directory.writeUInt32LE(entry.data.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += entry.data.length;
  });
  return Buffer.concat([directory, ...entries.map((entry) => entry.data)]);
}

/** One image of an .ico as read back: its size and whether it is stored as PNG. */
export interface IcoEntry {
  readonly size: number;
  readonly isPng: boolean;
  readonly data: Buffer;
}

/** Reads the directory of an .ico file (to check what a build ships). */
export function readIco(file: Buffer): readonly IcoEntry[] {
  if (file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new Error('not an .ico file');
  return Array.from({ length: file.readUInt16LE(4) }, (_, index) => {
    const at = 6 + index * 16;
    const size = file.readUInt8(at) === 0 ? 256 : file.readUInt8(at);
    const start = file.readUInt32LE(at + 12);
    const data = file.subarray(start, start + file.readUInt32LE(at + 8));
    return { size, isPng: data.subarray(1, 4).toString('latin1') === 'PNG', data };
  });
}
