import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../core/create-core';
import { silentLogger } from '../logging/logger';
import { readServeInfo } from '../server/serve-info';
import { agentCredentialFor } from '../test-support/agent-credential';
import { spawnVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import type { HttpRoute } from '../transport/http-route';
import { startDesktopGateway, type DesktopGateway } from './desktop-gateway';

/** A route standing in for the core's gateway endpoints, to see that the desktop server mounts them. */
const pingRoute: HttpRoute = {
  path: '/test-ping',
  audience: 'agent',
  handleRequest: (_request, response) => {
    response.setHeader('Content-Type', 'text/plain');
    response.end('pong');
  },
};

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function coreOnTempHome(): Promise<Core> {
  const temp = await makeTempDir('vigil-desktop-gateway-');
  cleanups.push(temp.remove);
  const core = await createCore({ home: path.join(temp.dir, 'home'), logger: silentLogger });
  cleanups.push(() => core.dispose());
  return core;
}

async function start(core: Core): Promise<DesktopGateway> {
  const gateway = await startDesktopGateway({
    core: { ...core, httpRoutes: [...core.httpRoutes, pingRoute] },
    logger: silentLogger,
  });
  cleanups.push(() => gateway.close());
  return gateway;
}

function serving(gateway: DesktopGateway): Extract<DesktopGateway, { kind: 'serving' }> {
  if (gateway.kind !== 'serving') throw new Error(`expected the gateway to serve, got: ${gateway.error.message}`);
  return gateway;
}

describe('startDesktopGateway', () => {
  it('serves the core’s routes on loopback with vigil serve’s credential model: the UI credential in serve.json, agents with their own', async () => {
    const core = await coreOnTempHome();
    const gateway = serving(await start(core));
    const info = await readServeInfo(core.paths.serveInfo);
    expect(info).toMatchObject({ pid: process.pid, port: gateway.port });
    // The address only: no credential travels in serve.json's url.
    expect(info?.url).toBe(`http://127.0.0.1:${gateway.port}/`);
    if (process.platform !== 'win32') expect((await stat(core.paths.serveInfo)).mode & 0o777).toBe(0o600);

    const url = new URL('/test-ping', gateway.baseUrl);
    const ui = { authorization: `Bearer ${info?.token ?? ''}` };
    const agent = { authorization: `Bearer ${await agentCredentialFor(core.paths.home)}` };
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(url, { headers: ui })).status).toBe(403);
    const pong = await fetch(url, { headers: agent });
    expect([pong.status, await pong.text()]).toEqual([200, 'pong']);
    expect((await fetch(new URL('/ws', gateway.baseUrl), { headers: agent })).status).toBe(403);
    expect((await fetch(new URL('/ws', gateway.baseUrl), { headers: ui })).status).toBe(426);
    expect((await fetch(new URL('/', gateway.baseUrl))).status).toBe(404);
    for (const route of core.httpRoutes.filter((candidate) => candidate.handleRequest !== undefined)) {
      expect((await fetch(new URL(route.path, gateway.baseUrl), { headers: agent })).status, route.path).not.toBe(404);
      expect((await fetch(new URL(route.path, gateway.baseUrl), { headers: ui })).status, route.path).toBe(403);
    }

    await gateway.close();
    expect(await readServeInfo(core.paths.serveInfo)).toBeUndefined();
    await expect(fetch(url, { headers: agent })).rejects.toThrow();
  });

  it('stands aside while another Vigil serves the same data folder, and takes over once it is dead', async () => {
    const core = await coreOnTempHome();
    const other = spawnVigil(['serve', '--port', '0'], { env: { VIGIL_HOME: core.paths.home } });
    cleanups.push(async () => {
      if (other.exitCode === null && other.signalCode === null) {
        other.kill('SIGKILL');
        await new Promise((resolve) => other.once('exit', resolve));
      }
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      other.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (/^url: /m.test(output)) resolve();
      });
      other.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      other.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}):\n${output}`)));
    });

    const refused = await start(core);
    expect(refused.kind).toBe('unavailable');
    if (refused.kind === 'unavailable') {
      expect(refused.error.code).toBe('busy');
      expect(refused.owner?.pid).toBe(other.pid);
    }
    expect((await readServeInfo(core.paths.serveInfo))?.pid).toBe(other.pid);

    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    const gateway = serving(await start(core));
    expect(await readServeInfo(core.paths.serveInfo)).toMatchObject({ pid: process.pid, port: gateway.port });
  });
});
