import type { RgbaImage } from './png';

/**
 * Vigil's mark: an open eye (keeping watch) on an indigo tile. Drawn from signed distance fields
 * at each size rather than scaled down from one bitmap, so the small sizes stay crisp: below 64 px
 * the tile fills the canvas and the eye grows, and the catch-light is dropped.
 */

type Rgb = readonly [number, number, number];

const tileTop: Rgb = [0x4f, 0x46, 0xe5];
const tileBottom: Rgb = [0x1e, 0x1b, 0x4b];
const eyeWhite: Rgb = [0xff, 0xff, 0xff];
const iris: Rgb = [0x22, 0xd3, 0xee];
const pupil: Rgb = [0x1e, 0x1b, 0x4b];

function mix(from: Rgb, to: Rgb, t: number): Rgb {
  return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
}

/** Signed distance (unit coordinates; negative inside) to a rounded square centred in the canvas. */
function roundedSquare(x: number, y: number, half: number, radius: number): number {
  const qx = Math.abs(x - 0.5) - half + radius;
  const qy = Math.abs(y - 0.5) - half + radius;
  const outside = Math.sqrt(Math.max(qx, 0) ** 2 + Math.max(qy, 0) ** 2);
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

function circle(x: number, y: number, cx: number, cy: number, radius: number): number {
  return Math.sqrt((x - cx) ** 2 + (y - cy) ** 2) - radius;
}

/** The almond of the eye: the intersection of two circles, `width` wide and `height` tall. */
function almond(x: number, y: number, width: number, height: number): number {
  const halfHeight = height / 2;
  const halfWidth = width / 2;
  const radius = (halfWidth * halfWidth + halfHeight * halfHeight) / (2 * halfHeight);
  const offset = radius - halfHeight;
  return Math.max(circle(x, y, 0.5, 0.5 + offset, radius), circle(x, y, 0.5, 0.5 - offset, radius));
}

/** The proportions used at one size. */
interface MarkGeometry {
  readonly tileHalf: number;
  readonly tileRadius: number;
  readonly eyeWidth: number;
  readonly eyeHeight: number;
  readonly irisRadius: number;
  readonly pupilRadius: number;
  readonly hasCatchLight: boolean;
}

function geometryFor(size: number): MarkGeometry {
  if (size < 64) {
    return {
      tileHalf: 0.5,
      tileRadius: 0.2,
      eyeWidth: 0.84,
      eyeHeight: 0.5,
      irisRadius: 0.2,
      pupilRadius: 0.09,
      hasCatchLight: false,
    };
  }
  // macOS's grid: an 824/1024 tile with ~22% corner radius; the same art serves Linux and Windows.
  return {
    tileHalf: 0.4023,
    tileRadius: 0.1758,
    eyeWidth: 0.62,
    eyeHeight: 0.34,
    irisRadius: 0.13,
    pupilRadius: 0.062,
    hasCatchLight: true,
  };
}

/** Paints `color` over the pixel with the given coverage (0..1), straight alpha. */
function paint(pixels: Uint8Array, offset: number, color: Rgb, coverage: number): void {
  if (coverage <= 0) return;
  const destinationAlpha = (pixels[offset + 3] ?? 0) / 255;
  const alpha = coverage + destinationAlpha * (1 - coverage);
  for (let channel = 0; channel < 3; channel += 1) {
    const destination = pixels[offset + channel] ?? 0;
    const blended = ((color[channel] ?? 0) * coverage + destination * destinationAlpha * (1 - coverage)) / alpha;
    pixels[offset + channel] = Math.round(blended);
  }
  pixels[offset + 3] = Math.round(alpha * 255);
}

/** Coverage of a pixel by a shape from its signed distance in pixels (analytic anti-aliasing). */
function coverage(distanceInPixels: number): number {
  return Math.min(1, Math.max(0, 0.5 - distanceInPixels));
}

/** Renders the mark at `size` × `size` pixels. */
export function renderVigilMark(size: number): RgbaImage {
  const shape = geometryFor(size);
  const pixels = new Uint8Array(size * size * 4);
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const x = (column + 0.5) / size;
      const y = (row + 0.5) / size;
      const offset = (row * size + column) * 4;
      const t = Math.min(1, Math.max(0, (y - (0.5 - shape.tileHalf)) / (2 * shape.tileHalf)));
      paint(
        pixels,
        offset,
        mix(tileTop, tileBottom, t),
        coverage(roundedSquare(x, y, shape.tileHalf, shape.tileRadius) * size),
      );
      paint(pixels, offset, eyeWhite, coverage(almond(x, y, shape.eyeWidth, shape.eyeHeight) * size));
      const irisCoverage = coverage(circle(x, y, 0.5, 0.5, shape.irisRadius) * size);
      const insideEye = coverage(almond(x, y, shape.eyeWidth, shape.eyeHeight) * size);
      paint(pixels, offset, iris, Math.min(irisCoverage, insideEye));
      paint(pixels, offset, pupil, coverage(circle(x, y, 0.5, 0.5, shape.pupilRadius) * size));
      if (shape.hasCatchLight) {
        paint(
          pixels,
          offset,
          eyeWhite,
          coverage(
            circle(x, y, 0.5 + shape.irisRadius * 0.38, 0.5 - shape.irisRadius * 0.38, shape.irisRadius * 0.2) * size,
          ),
        );
      }
    }
  }
  return { width: size, height: size, pixels };
}
