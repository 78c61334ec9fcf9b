import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/pack-asar';
import { icnsTypes, readIcns } from './icns';
import { readIco } from './ico';
import { buildIconSet, linuxIconSizes, windowsIconSizes } from './icon-set';
import { decodePng, encodePng, type RgbaImage } from './png';
import { renderVigilMark } from './vigil-mark';

const committed = (file: string): Buffer => readFileSync(path.join(repoRoot, file));

/** Same size and same RGBA bytes (a byte comparison: deep equality of megapixel arrays is too slow). */
function expectSamePixels(actual: RgbaImage, expected: RgbaImage, label: string): void {
  expect([actual.width, actual.height], label).toEqual([expected.width, expected.height]);
  expect(Buffer.from(actual.pixels).equals(Buffer.from(expected.pixels)), `${label}: pixels differ`).toBe(true);
}

describe('the icon set in build/', () => {
  const generated = new Map(buildIconSet().map((file) => [file.path, file.content]));

  it('matches what scripts/generate-icons.ts draws (run `npm run icons` after changing the mark)', () => {
    for (const [file, content] of generated) {
      if (file.endsWith('.png')) {
        // Compare pixels, not bytes: another zlib may compress the same image differently.
        expectSamePixels(decodePng(committed(file)), decodePng(content), file);
      }
    }
    const ico = readIco(committed('build/icon.ico'));
    const expectedIco = readIco(generated.get('build/icon.ico') ?? Buffer.alloc(0));
    expect(ico.map((entry) => entry.size)).toEqual(expectedIco.map((entry) => entry.size));
    ico.forEach((entry, index) => {
      const expected = expectedIco[index]?.data ?? Buffer.alloc(0);
      if (entry.isPng) expectSamePixels(decodePng(entry.data), decodePng(expected), `icon.ico ${entry.size}`);
      else expect(entry.data.equals(expected), `icon.ico ${entry.size}`).toBe(true);
    });
    const icns = readIcns(committed('build/icon.icns'));
    const expectedIcns = readIcns(generated.get('build/icon.icns') ?? Buffer.alloc(0));
    expect(icns.map((element) => element.type)).toEqual(expectedIcns.map((element) => element.type));
    icns.forEach((element, index) => {
      expectSamePixels(
        decodePng(element.data),
        decodePng(expectedIcns[index]?.data ?? Buffer.alloc(0)),
        `icon.icns ${element.type}`,
      );
    });
  });

  it('has every size each platform needs, at the size its name says', () => {
    for (const size of linuxIconSizes) {
      const image = decodePng(committed(`build/icons/${size}x${size}.png`));
      expect([image.width, image.height]).toEqual([size, size]);
    }
    expect(decodePng(committed('build/icon.png')).width).toBe(1024);
    const ico = readIco(committed('build/icon.ico'));
    expect(ico.map((entry) => entry.size)).toEqual([...windowsIconSizes]);
    expect(ico.filter((entry) => entry.isPng).map((entry) => entry.size)).toEqual([256]);
    const icns = readIcns(committed('build/icon.icns'));
    for (const element of icns) {
      const expected = icnsTypes.find((candidate) => candidate.type === element.type)?.pixels;
      expect(decodePng(element.data).width, element.type).toBe(expected);
    }
    expect(icns.map((element) => element.type)).toContain('ic10');
  });
});

describe('the mark', () => {
  it('is an opaque tile with the eye in the middle and transparent corners', () => {
    for (const size of [16, 256]) {
      const { pixels } = renderVigilMark(size);
      const at = (x: number, y: number): number[] => [...pixels.subarray((y * size + x) * 4, (y * size + x) * 4 + 4)];
      expect(at(0, 0)[3]).toBe(0);
      const centre = Math.floor(size / 2);
      expect(at(centre, centre)).toEqual([0x1e, 0x1b, 0x4b, 255]);
      expect(at(Math.floor(size * 0.2), centre)).toEqual([255, 255, 255, 255]);
      expect(at(centre, Math.floor(size * 0.15))[3]).toBe(255);
    }
  });

  it('survives a PNG round trip unchanged', () => {
    const image = renderVigilMark(48);
    expectSamePixels(decodePng(encodePng(image)), image, 'round trip');
  });
});
