import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { created, git, testService } from '../checkpoints/test-support/store-fixtures';
import { placeholderRecordFolder } from './placeholder-record';
import { silentLogger } from '../logging/logger';
import { childEnv } from '../test-support/run-vigil';
import { SpawnServer } from './spawn-client';
import { until } from './test-support/engine-bridges';
import { createSandboxWorld, type SandboxWorld } from './test-support/sandbox-fixture';

const isLinux = process.platform === 'linux';

describe.runIf(isLinux)('a checkpoint taken while a sandboxed command runs', () => {
  let world: SandboxWorld;
  let storeRoot: string;
  beforeEach(async () => {
    world = await createSandboxWorld({ 'src/app.ts': 'export {};\n', '.mcp.json': '{}\n' });
    storeRoot = path.join(world.base, 'checkpoints');
  });
  afterEach(async () => {
    await world.close();
  });

  /** The files a checkpoint of the workspace, taken now, stores (as git lists them). */
  async function storedNow(): Promise<string[]> {
    const service = testService(storeRoot);
    try {
      const entry = created(await service.checkpoint(world.workspace, { reason: 'manual checkpoint' }));
      return git(['--git-dir', path.join(storeRoot, 'store'), 'ls-tree', '-r', '--name-only', entry.id]).split('\n');
    } finally {
      await service.dispose();
    }
  }

  it('stores none of the placeholders made for it', async () => {
    // The command is stopped when the world closes.
    void world.run('echo > started; sleep 60', { timeoutMs: 120_000 }).catch(() => undefined);
    await until(() => existsSync(path.join(world.workspace, 'started')));
    expect(existsSync(path.join(world.workspace, '.vscode'))).toBe(true);
    expect(await storedNow()).toEqual(['.mcp.json', 'src/app.ts', 'started']);
  });

  it('stores no placeholder of a protected file removed after the command was planned, which stays unwritable', async () => {
    // The command's profile denied .mcp.json while it was there; the user removed it before the sandbox was built.
    const mcp = path.join(world.workspace, '.mcp.json');
    rmSync(mcp);
    const engineFolder = path.join(world.base, 'engine');
    mkdirSync(engineFolder);
    const server = new SpawnServer(childEnv(), silentLogger);
    try {
      const running = server.run({
        command: 'echo > started; ! echo "{}" > .mcp.json 2>/dev/null && sleep 60',
        cwd: world.workspace,
        env: childEnv(),
        timeoutMs: 120_000,
        outputCapBytes: 1 << 16,
        wrap: {
          directory: engineFolder,
          denyRead: [],
          allowWrite: [world.workspace],
          denyWrite: [mcp],
          temp: world.workspace,
          network: { deniedDomains: [] },
          placeholderRecords: placeholderRecordFolder(world.vigilHome, 'linux') ?? '',
        },
      });
      const ended = running.then(
        (result) => result,
        (error: unknown) => error,
      );
      const state = { hasEnded: false };
      void ended.then(() => (state.hasEnded = true));
      await until(() => state.hasEnded || existsSync(path.join(world.workspace, 'started')));
      expect(state.hasEnded ? await ended : 'running').toBe('running');
      expect(await storedNow()).toEqual(['src/app.ts', 'started']);
    } finally {
      await server.dispose();
    }
    await server.released();
    expect(existsSync(mcp)).toBe(false);
  });
});
