import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import type { Logger } from '../logging';

const rectangleSchema = lazySchema(() =>
  z.object({
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  }),
);

/** What `window-state.json` remembers: the normal (unmaximized) bounds and the window's mode. */
export const windowStateSchema = lazySchema(() =>
  z.object({
    bounds: rectangleSchema,
    isMaximized: z.boolean(),
    isFullScreen: z.boolean(),
  }),
);

/** A rectangle in screen coordinates (Electron's `Rectangle`). */
export type ScreenRectangle = z.infer<typeof rectangleSchema>;

/** The remembered window state. */
export type WindowState = z.infer<typeof windowStateSchema>;

/** Where and how to open the window. Without x/y, Electron centres it. */
export interface WindowPlacement {
  readonly width: number;
  readonly height: number;
  readonly x?: number;
  readonly y?: number;
  readonly isMaximized: boolean;
  readonly isFullScreen: boolean;
}

/** The window's size limits and first-run size. */
export interface WindowSizing {
  readonly width: number;
  readonly height: number;
  readonly minWidth: number;
  readonly minHeight: number;
}

/** Reads the remembered state; undefined when there is none or it is unreadable (logged, never fatal). */
export async function readWindowState(file: string, logger: Logger): Promise<WindowState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn('window state unreadable; using the default size', { file, error });
    return undefined;
  }
  try {
    return windowStateSchema.parse(JSON.parse(text));
  } catch (error) {
    logger.warn('window state is not valid; using the default size', { file, error });
    return undefined;
  }
}

/** How much of the window (px each way) must lie on a display for the saved position to be kept. */
const minimumVisible = 64;

function overlap(a: ScreenRectangle, b: ScreenRectangle): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window: the remembered bounds when a usable part of them is still on one of
 * the current displays (`workAreas`, first = primary), shrunk to fit that display; otherwise the
 * remembered size (or the default) centred on the primary display. A monitor unplugged since the
 * last run never leaves the window off screen.
 */
export function placeWindow(
  saved: WindowState | undefined,
  workAreas: readonly ScreenRectangle[],
  sizing: WindowSizing,
): WindowPlacement {
  const fit = (
    width: number,
    height: number,
    area: ScreenRectangle | undefined,
  ): { width: number; height: number } => ({
    width: Math.max(sizing.minWidth, Math.min(width, area?.width ?? width)),
    height: Math.max(sizing.minHeight, Math.min(height, area?.height ?? height)),
  });
  if (saved === undefined) {
    return { ...fit(sizing.width, sizing.height, workAreas[0]), isMaximized: false, isFullScreen: false };
  }
  const { bounds } = saved;
  const home = workAreas.find((area) => {
    const shared = overlap(bounds, area);
    return shared.width >= minimumVisible && shared.height >= minimumVisible;
  });
  if (home === undefined) {
    return {
      ...fit(bounds.width, bounds.height, workAreas[0]),
      isMaximized: saved.isMaximized,
      isFullScreen: saved.isFullScreen,
    };
  }
  const size = fit(bounds.width, bounds.height, home);
  const x = Math.min(Math.max(bounds.x, home.x), home.x + home.width - size.width);
  const y = Math.min(Math.max(bounds.y, home.y), home.y + home.height - size.height);
  return { ...size, x, y, isMaximized: saved.isMaximized, isFullScreen: saved.isFullScreen };
}
