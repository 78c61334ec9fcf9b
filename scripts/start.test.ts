import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
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

/**
 * Runs `npm start`'s script (build included) with `env` and no display, until `vigil serve`
 * prints its URL; then stops it with SIGTERM and resolves with everything it printed.
 */
async function startUntilUrl(env: NodeJS.ProcessEnv): Promise<{ output: string; url: string }> {
  const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ELECTRON_OVERRIDE_DIST_PATH: _override, ...rest } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts'), '--port', '0'], {
    cwd: root,
    env: { ...rest, VIGIL_HOME: await tempDir('vigil-start-home-'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const collect = (chunk: string): void => {
      output += chunk;
      const match = /^url: (\S+)$/m.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);
    void exited.then(() => reject(new Error(`npm start exited before printing a URL:\n${output}`)));
  });
  // The printed URL is live: it trades its token for the page's cookie.
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('set-cookie')).toMatch(/^vigil_token_\d+=/);
  child.kill('SIGTERM');
  await exited;
  return { output, url };
}

/** The paragraph with its line breaks folded, so phrases can be matched across them. */
const folded = (output: string): string => output.replace(/\s+/g, ' ');

describe('npm start without a usable Electron', () => {
  it('with ELECTRON_OVERRIDE_DIST_PATH at an empty folder: says so, serves the UI instead and prints its URL', async () => {
    const empty = await tempDir('vigil-no-electron-');
    const { output, url } = await startUntilUrl({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    const text = folded(output);
    expect(text).toContain(`Vigil cannot open its desktop window here: ELECTRON_OVERRIDE_DIST_PATH points at ${empty}, which holds no electron executable.`);
    expect(text).toContain('`vigil serve` runs the same core and the same UI on 127.0.0.1');
    expect(text).toContain('the token is valid until this server stops');
    expect(text).toContain(`a folder that holds ${electronBinaryPhrase(root)}`);
    expect(electronBinaryPhrase(root)).toMatch(/^an Electron \d+\.\d+\.\d+ binary$/);
    expect(text).not.toMatch(/one-time|Electron 45 binary|exit code null|Fetching the Electron/);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
  }, 180_000);

  it('with a runtime but no display: names the display, and never launches the runtime', async () => {
    const folder = await tempDir('vigil-fake-electron-');
    const marker = path.join(folder, 'launched');
    await writeFile(path.join(folder, 'electron'), `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(path.join(folder, 'electron'), 0o755);
    const { output } = await startUntilUrl({ ELECTRON_OVERRIDE_DIST_PATH: folder });
    expect(folded(output)).toContain('the Electron runtime is here, but there is no display to open a window on: neither DISPLAY nor WAYLAND_DISPLAY is set.');
    expect(folded(output)).toContain('xvfb-run npm start');
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 180_000);

  const hasFetchedRuntime = 'path' in electronExecutable(root);
  it.skipIf(hasFetchedRuntime)('when the download hangs: stops at the bound and says so, without an exit code', async () => {
    // A mirror on loopback that takes connections and never answers: a blackholed network.
    const held: Socket[] = [];
    const blackhole: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const { port } = blackhole.address() as { port: number };
    try {
      const { output } = await startUntilUrl({
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
        electron_config_cache: await tempDir('vigil-electron-cache-'),
        VIGIL_ELECTRON_FETCH_TIMEOUT: '3',
      });
      const text = folded(output);
      expect(text).toContain('Fetching the Electron');
      expect(text).toContain('fetching it did not finish within 3 s (no network, or a slow one)');
      expect(text).toContain('VIGIL_ELECTRON_FETCH_TIMEOUT');
      expect(text).not.toMatch(/exit code null|one-time/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => blackhole.close(() => resolve()));
    }
  }, 180_000);
});
