import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { placeWindow, readWindowState, type ScreenRectangle, type WindowState } from './window-state';
import { createWindowStateWriter } from './window-state-writer';

const sizing = { width: 1280, height: 800, minWidth: 960, minHeight: 600 };
const laptop: ScreenRectangle = { x: 0, y: 25, width: 1440, height: 875 };
const monitorRight: ScreenRectangle = { x: 1440, y: 0, width: 2560, height: 1440 };

function state(bounds: ScreenRectangle, mode: Partial<WindowState> = {}): WindowState {
  return { bounds, isMaximized: false, isFullScreen: false, ...mode };
}

describe('placeWindow', () => {
  it('opens a first window at the default size, centred', () => {
    expect(placeWindow(undefined, [laptop], sizing)).toEqual({
      width: 1280,
      height: 800,
      isMaximized: false,
      isFullScreen: false,
    });
  });

  it('restores the remembered bounds and mode on the display that still holds them', () => {
    expect(
      placeWindow(
        state({ x: 1600, y: 100, width: 1800, height: 1000 }, { isMaximized: true }),
        [laptop, monitorRight],
        sizing,
      ),
    ).toEqual({
      x: 1600,
      y: 100,
      width: 1800,
      height: 1000,
      isMaximized: true,
      isFullScreen: false,
    });
  });

  it('centres the window on the primary display when its monitor is gone', () => {
    expect(placeWindow(state({ x: 1600, y: 100, width: 1800, height: 1000 }), [laptop], sizing)).toEqual({
      width: 1440,
      height: 875,
      isMaximized: false,
      isFullScreen: false,
    });
  });

  it('pulls a window hanging off the edge back so its title bar is reachable', () => {
    const placed = placeWindow(state({ x: 1300, y: -200, width: 1000, height: 700 }), [laptop], sizing);
    expect(placed).toEqual({ x: 440, y: 25, width: 1000, height: 700, isMaximized: false, isFullScreen: false });
  });

  it('never makes the window smaller than its minimum', () => {
    expect(placeWindow(state({ x: 10, y: 40, width: 200, height: 100 }), [laptop], sizing)).toMatchObject({
      width: 960,
      height: 600,
    });
  });
});

describe('the window state file', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('is written atomically after the moves settle, and read back', async () => {
    const temp = await makeTempDir('vigil-window-');
    cleanup = temp.remove;
    const file = path.join(temp.dir, 'window-state.json');
    const writer = createWindowStateWriter(file, silentLogger, 10_000);
    writer.save(state({ x: 1, y: 2, width: 1000, height: 700 }));
    writer.save(state({ x: 5, y: 6, width: 1100, height: 720 }, { isMaximized: true }));
    expect(await readWindowState(file, silentLogger)).toBeUndefined();
    await writer.flush();
    expect(await readWindowState(file, silentLogger)).toEqual(
      state({ x: 5, y: 6, width: 1100, height: 720 }, { isMaximized: true }),
    );
    expect(await readdir(temp.dir)).toEqual(['window-state.json']);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes on its own once the window has been still for the delay', async () => {
    const temp = await makeTempDir('vigil-window-');
    cleanup = temp.remove;
    const file = path.join(temp.dir, 'window-state.json');
    const writer = createWindowStateWriter(file, silentLogger, 5);
    writer.save(state({ x: 1, y: 2, width: 1000, height: 700 }));
    await expect
      .poll(() => readWindowState(file, silentLogger))
      .toEqual(state({ x: 1, y: 2, width: 1000, height: 700 }));
  });

  it('treats a missing, corrupt or foreign file as no state', async () => {
    const temp = await makeTempDir('vigil-window-');
    cleanup = temp.remove;
    const file = path.join(temp.dir, 'window-state.json');
    expect(await readWindowState(file, silentLogger)).toBeUndefined();
    await writeFile(file, '{"bounds":{"x":1');
    expect(await readWindowState(file, silentLogger)).toBeUndefined();
    await writeFile(
      file,
      JSON.stringify({ bounds: { x: 0, y: 0, width: -5, height: 10 }, isMaximized: false, isFullScreen: false }),
    );
    expect(await readWindowState(file, silentLogger)).toBeUndefined();
    expect(await readFile(file, 'utf8')).toContain('-5');
  });
});
