import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { startServe, type RunningServe } from './start-serve';

let temp: { dir: string; remove: () => Promise<void> };
let running: RunningServe | undefined;

beforeEach(async () => {
  temp = await makeTempDir('vigil-static-');
  const renderer = path.join(temp.dir, 'renderer');
  const outside = path.join(temp.dir, 'outside');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>app bundle</title>');
  await writeFile(path.join(renderer, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
});

afterEach(async () => {
  await running?.close();
  running = undefined;
  await temp.remove();
});

async function serve(rendererDir: string): Promise<string> {
  running = await startServe({
    home: path.join(temp.dir, 'home'),
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    rendererDir,
    logger: silentLogger,
  });
  return running.http.baseUrl;
}

async function get(base: string, target: string): Promise<readonly [number, string]> {
  const response = await fetch(new URL(target, base));
  return [response.status, await response.text()];
}

describe('static files are confined by real path', () => {
  it('serves plain files, and refuses a symlink anywhere under the served folder, pointing outside or inside', async () => {
    const renderer = path.join(temp.dir, 'renderer');
    await symlink(path.join(temp.dir, 'outside', 'secret.txt'), path.join(renderer, 'assets', 'leak.txt'));
    await symlink(path.join(temp.dir, 'outside'), path.join(renderer, 'linked-dir'));
    await symlink(path.join(renderer, 'index.html'), path.join(renderer, 'alias.html'));
    const base = await serve(renderer);

    expect(await get(base, '/')).toEqual([200, '<!doctype html><title>app bundle</title>']);
    expect(await get(base, '/assets/app.js')).toEqual([200, 'console.log("app")']);
    for (const target of ['/assets/leak.txt', '/linked-dir/secret.txt', '/alias.html']) {
      const [status, body] = await get(base, target);
      expect(status, target).toBe(403);
      expect(body, target).toMatch(/symbolic link/);
      expect(body, target).not.toContain('OUTSIDE-SECRET');
    }
  });

  it('refuses encoded traversal, encoded separators and NUL, and never answers 500', async () => {
    const base = await serve(path.join(temp.dir, 'renderer'));
    for (const target of [
      '/%2e%2e/outside/secret.txt',
      '/assets%2f..%2f..%2foutside%2fsecret.txt',
      '/..%5coutside%5csecret.txt',
      '/index.html%00',
      '/%E0%A4%A',
      '/assets/',
    ]) {
      const [status, body] = await get(base, target);
      expect([status, target]).toEqual([404, target]);
      expect(body).not.toContain('OUTSIDE-SECRET');
    }
  });

  it('serves a UI folder that is itself reached through a symlink (an install path), since only what is under it is checked', async () => {
    const linkedRoot = path.join(temp.dir, 'renderer-link');
    await symlink(path.join(temp.dir, 'renderer'), linkedRoot);
    const base = await serve(linkedRoot);
    expect((await get(base, '/assets/app.js'))[0]).toBe(200);
  });
});
