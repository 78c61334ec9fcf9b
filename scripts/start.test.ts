import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

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
  // The printed URL is live: the page loads, and the token in its fragment opens the UI's channel.
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(200);
  expect(page.headers.get('set-cookie')).toBeNull();
  const token = new URL(url).hash.replace(/^#token=/, '');
  expect((await fetch(new URL('/ws', url), { headers: { authorization: `Bearer ${token}` } })).status).toBe(426);
  child.kill('SIGTERM');
  await exited;
  return { output, url };
}

/** The paragraph with its line breaks folded, so phrases can be matched across them. */
const folded = (output: string): string => output.replace(/\s+/g, ' ');

describe('npm start without a usable Electron', () => {
  // The causes and their explanations are tested against desktopRuntime (desktop-runtime.test.ts);
  // this runs the whole script once: build, explanation, then `vigil serve` in the runtime's place.
  it('explains why, serves the UI instead and prints a URL that works', async () => {
    const empty = await tempDir('vigil-no-electron-');
    const { output, url } = await startUntilUrl({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    const text = folded(output);
    expect(text).toContain(
      `Vigil cannot open its desktop window here: ELECTRON_OVERRIDE_DIST_PATH points at ${empty}, which holds no electron executable.`,
    );
    expect(text).toContain('`vigil serve` runs the same core and the same UI on 127.0.0.1');
    expect(text).toContain('the token is valid until this server stops');
    expect(text).not.toContain('Fetching the Electron');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/);
  }, 180_000);
});
