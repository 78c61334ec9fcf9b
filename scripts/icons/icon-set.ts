import { encodeIcns, icnsTypes } from './icns';
import { encodeIco } from './ico';
import { encodePng, type RgbaImage } from './png';
import { renderVigilMark } from './vigil-mark';

/** One file of the icon set, relative to the repository root. */
export interface IconFile {
  readonly path: string;
  readonly content: Buffer;
}

/** The sizes of the Linux PNG set (electron-builder names them `<n>x<n>.png` in `build/icons`). */
export const linuxIconSizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
/** The sizes inside the Windows .ico. */
export const windowsIconSizes = [16, 24, 32, 48, 64, 128, 256] as const;

/**
 * Every icon electron-builder uses: `build/icon.png` (1024 px master), `build/icons/*.png` (Linux),
 * `build/icon.ico` (Windows, installer included) and `build/icon.icns` (macOS).
 */
export function buildIconSet(): readonly IconFile[] {
  const rendered = new Map<number, RgbaImage>();
  const image = (size: number): RgbaImage => {
    let found = rendered.get(size);
    if (found === undefined) {
      found = renderVigilMark(size);
      rendered.set(size, found);
    }
    return found;
  };
  return [
    { path: 'build/icon.png', content: encodePng(image(1024)) },
    ...linuxIconSizes.map((size) => ({ path: `build/icons/${size}x${size}.png`, content: encodePng(image(size)) })),
    { path: 'build/icon.ico', content: encodeIco(windowsIconSizes.map(image)) },
    {
      path: 'build/icon.icns',
      content: encodeIcns(icnsTypes.map(({ type, pixels }) => ({ type, data: encodePng(image(pixels)) }))),
    },
  ];
}
