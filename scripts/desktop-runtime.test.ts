import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { desktopRuntime } from './desktop-runtime';
import { explainDesktopUnavailable } from './desktop-unavailable';
import { electronBinaryPhrase, electronExecutable } from './electron-binary';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** This machine's environment with no display and no Electron override. */
const {
  DISPLAY: _display,
  WAYLAND_DISPLAY: _wayland,
  ELECTRON_OVERRIDE_DIST_PATH: _override,
  ...headless
} = process.env;

/**
 * What `npm start` would say under `env` (added to a headless environment): the progress lines
 * and the paragraph explaining why there is no desktop window, with line breaks folded.
 */
async function explanation(env: NodeJS.ProcessEnv): Promise<{ progress: string; text: string }> {
  let progress = '';
  const runtime = await desktopRuntime(root, { ...headless, ...env }, (text) => (progress += text));
  if ('path' in runtime) throw new Error(`expected no usable runtime, got ${runtime.path}`);
  const text = explainDesktopUnavailable(runtime.unavailable, electronBinaryPhrase(root)).replace(/\s+/g, ' ');
  return { progress, text };
}

describe('desktopRuntime without a usable Electron', () => {
  it('with ELECTRON_OVERRIDE_DIST_PATH at an empty folder: names that folder, and fetches nothing', async () => {
    const empty = await tempDir('vigil-no-electron-');
    const { progress, text } = await explanation({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    expect(progress).toBe('');
    expect(text).toContain(
      `Vigil cannot open its desktop window here: ELECTRON_OVERRIDE_DIST_PATH points at ${empty}, which holds no electron executable.`,
    );
    expect(text).toContain(`a folder that holds ${electronBinaryPhrase(root)}`);
    expect(electronBinaryPhrase(root)).toMatch(/^an Electron \d+\.\d+\.\d+ binary$/);
    expect(text).not.toMatch(/one-time|Electron 45 binary|exit code null/);
  });

  it('with a runtime but no display: names the display, and never launches the runtime', async () => {
    const folder = await tempDir('vigil-fake-electron-');
    const marker = path.join(folder, 'launched');
    await writeFile(path.join(folder, 'electron'), `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(path.join(folder, 'electron'), 0o755);
    const { text } = await explanation({ ELECTRON_OVERRIDE_DIST_PATH: folder });
    expect(text).toContain(
      'the Electron runtime is here, but there is no display to open a window on: neither DISPLAY nor WAYLAND_DISPLAY is set.',
    );
    expect(text).toContain('xvfb-run npm start');
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf('path' in electronExecutable(root, headless))(
    'when the download hangs: stops at the bound and says so, without an exit code',
    async () => {
      // A mirror on loopback that takes connections and never answers: a blackholed network.
      const held: Socket[] = [];
      const blackhole: Server = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
      const { port } = blackhole.address() as { port: number };
      try {
        const { progress, text } = await explanation({
          ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
          electron_config_cache: await tempDir('vigil-electron-cache-'),
          VIGIL_ELECTRON_FETCH_TIMEOUT: '3',
        });
        expect(progress).toContain('Fetching the Electron');
        expect(progress).toContain('at most 3 s');
        expect(text).toContain('fetching it did not finish within 3 s (no network, or a slow one)');
        expect(text).toContain('VIGIL_ELECTRON_FETCH_TIMEOUT');
        expect(text).not.toMatch(/exit code null|one-time/);
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise<void>((resolve) => blackhole.close(() => resolve()));
      }
    },
    60_000,
  );
});
