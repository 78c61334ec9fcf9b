import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallRequest } from '../../shared/contract';
import { silentLogger } from '../logging/logger';
import { engineBridges, until } from '../sandbox/test-support/engine-bridges';
import { makeTempDir } from '../test-support/temp-dir';
import { createCore, type CoreBase, type CoreOptions } from './create-core';

/**
 * A one-shot core built for `vigil tool terminal` starts the sandbox engine (its proxies and
 * bridges) while it is built, before any call reaches its services, so that the engine's wait for
 * its bridges passes while the rest loads; it stops the engine when disposed, whether or not a
 * command ran. A core built for any other call starts no engine.
 */
const context = { transport: 'cli', clientId: 'cli' } as const;

let temp: { dir: string; remove: () => Promise<void> };
let project: string;
let core: CoreBase | undefined;

beforeEach(async () => {
  temp = await makeTempDir('vigil-sandbox-ahead-');
  project = path.join(temp.dir, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'notes.txt'), 'notes\n');
});
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await temp.remove();
});

function oneShot(options: Pick<CoreOptions, 'runsTerminalCommand'>): Promise<CoreBase> {
  const home = path.join(temp.dir, 'vigil');
  const env = { VIGIL_HOME: home, HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') };
  return createCore({ home, logger: silentLogger, env, mode: 'one-shot', ...options });
}

function toolCall(name: string, args: unknown): CallRequest<'tools:run'> {
  return { name, arguments: args, cwd: project, roots: [project], agent: 'vigil tool' };
}

describe.skipIf(process.platform !== 'linux')('a one-shot core for a terminal call', () => {
  it('starts the sandbox engine while it is built, before any call, and stops it when disposed', async () => {
    core = await oneShot({ runsTerminalCommand: true });
    await until(() => engineBridges().length > 0);
    await core.dispose();
    core = undefined;
    expect(engineBridges()).toEqual([]);
  });

  it('stops the engine when the call is refused before any command ran', async () => {
    core = await oneShot({ runsTerminalCommand: true });
    const refused = await core.router.dispatch('tools:run', toolCall('terminal', { command: 'rm -rf /' }), context);
    expect(refused).toMatchObject({ ok: true, value: { result: { ok: false, error: { code: 'denied' } } } });
    await core.dispose();
    core = undefined;
    expect(engineBridges()).toEqual([]);
  });

  it('starts no engine for another tool', async () => {
    core = await oneShot({});
    const read = await core.router.dispatch('tools:run', toolCall('read_file', { path: 'notes.txt' }), context);
    expect(read).toMatchObject({ ok: true, value: { result: { ok: true } } });
    expect(engineBridges()).toEqual([]);
  });
});
