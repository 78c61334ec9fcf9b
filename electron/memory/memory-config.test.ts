import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { makeTempDir } from '../test-support/temp-dir';
import { memoryDirectoryId, readMemoryConfig, resolveMemoryDirectories } from './memory-config';

let temp: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

async function configError(text: string): Promise<AppError> {
  const file = path.join(temp.dir, 'config.json');
  await writeFile(file, text);
  try {
    await readMemoryConfig(file);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('memory directories from config.json', () => {
  it('defaults to $VIGIL_HOME/memories, plus ~/.hermes/memories, optional until it exists', async () => {
    const home = path.join(temp.dir, 'home');
    const vigilMemories = path.join(temp.dir, 'vigil', 'memories');
    const config = await readMemoryConfig(path.join(temp.dir, 'missing.json'));
    const without = await resolveMemoryDirectories({ config, vigilMemories, env: {}, home });
    expect(without.map((directory) => [directory.source, directory.path, directory.isOptional ?? false])).toEqual([
      ['vigil', vigilMemories, false],
      ['hermes', path.join(home, '.hermes', 'memories'), true],
    ]);
    expect(without[0]?.limits).toEqual({ memory: 2200, user: 1375 });
    expect(without[0]?.id).toBe(memoryDirectoryId(vigilMemories));
    await mkdir(path.join(home, '.hermes', 'memories'), { recursive: true });
    const withHermes = await resolveMemoryDirectories({ config, vigilMemories, env: {}, home });
    expect(withHermes.map((directory) => [directory.source, directory.isOptional ?? false])).toEqual([
      ['vigil', false],
      ['hermes', false],
    ]);
    expect(withHermes[1]?.path).toBe(path.join(home, '.hermes', 'memories'));
  });

  it("treats a configured path equal to Hermes's memories folder as Hermes's, without the defaults and before the folder exists", async () => {
    const real = path.join(temp.dir, 'real-hermes');
    await mkdir(real);
    await symlink(real, path.join(temp.dir, 'hermes-link'));
    const file = path.join(temp.dir, 'config.json');
    // Configured through the real path; HERMES_HOME names the link; memories/ does not exist yet.
    await writeFile(
      file,
      JSON.stringify({
        memory: {
          includeDefaults: false,
          directories: [{ path: path.join(real, 'memories'), limits: { memory: 3000 } }],
        },
      }),
    );
    const directories = await resolveMemoryDirectories({
      config: await readMemoryConfig(file),
      vigilMemories: path.join(temp.dir, 'v'),
      env: { HERMES_HOME: path.join(temp.dir, 'hermes-link') },
      home: temp.dir,
    });
    expect(directories).toEqual([
      {
        id: memoryDirectoryId(path.join(real, 'memories')),
        path: path.join(real, 'memories'),
        label: 'Hermes memories',
        source: 'hermes',
        limits: { memory: 3000, user: 1375 },
      },
    ]);
  });

  it('uses $HERMES_HOME/memories when HERMES_HOME is set, resolved through symlinks', async () => {
    const real = path.join(temp.dir, 'real-hermes');
    await mkdir(path.join(real, 'memories'), { recursive: true });
    await symlink(real, path.join(temp.dir, 'hermes-link'));
    const config = await readMemoryConfig(path.join(temp.dir, 'missing.json'));
    const directories = await resolveMemoryDirectories({
      config,
      vigilMemories: path.join(temp.dir, 'v'),
      env: { HERMES_HOME: path.join(temp.dir, 'hermes-link') },
      home: temp.dir,
    });
    expect(directories[1]?.path).toBe(path.join(real, 'memories'));
  });

  it("follows Hermes's active profile (~/.hermes/active_profile) when HERMES_HOME is not set, as the Hermes CLI does", async () => {
    const home = path.join(temp.dir, 'home');
    const config = await readMemoryConfig(path.join(temp.dir, 'missing.json'));
    const hermesOf = async (env: NodeJS.ProcessEnv): Promise<string | undefined> =>
      (await resolveMemoryDirectories({ config, vigilMemories: path.join(temp.dir, 'v'), env, home })).find(
        (directory) => directory.source === 'hermes',
      )?.path;
    await mkdir(path.join(home, '.hermes', 'profiles', 'coder'), { recursive: true });
    await writeFile(path.join(home, '.hermes', 'active_profile'), 'Coder\n');
    expect(await hermesOf({})).toBe(path.join(home, '.hermes', 'profiles', 'coder', 'memories'));
    // HERMES_HOME wins, as it does for Hermes's memory tool.
    expect(await hermesOf({ HERMES_HOME: path.join(temp.dir, 'elsewhere') })).toBe(
      path.join(temp.dir, 'elsewhere', 'memories'),
    );
    for (const named of ['default\n', '', '../escape\n']) {
      await writeFile(path.join(home, '.hermes', 'active_profile'), named);
      expect(await hermesOf({}), JSON.stringify(named)).toBe(path.join(home, '.hermes', 'memories'));
    }
  });

  it('resolves a folder that does not exist yet through the symlinks of its existing part', async () => {
    const real = path.join(temp.dir, 'real');
    await mkdir(real);
    await symlink(real, path.join(temp.dir, 'link'));
    const config = await readMemoryConfig(path.join(temp.dir, 'missing.json'));
    const directories = await resolveMemoryDirectories({
      config,
      vigilMemories: path.join(temp.dir, 'link', 'not-yet', 'memories'),
      env: {},
      home: temp.dir,
    });
    expect(directories[0]?.path).toBe(path.join(real, 'not-yet', 'memories'));
  });

  it('adds configured directories and overrides limits per directory, matched by path', async () => {
    const vigilMemories = path.join(temp.dir, 'vigil', 'memories');
    const file = path.join(temp.dir, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        checkpoints: { someone: 'else' },
        memory: {
          directories: [
            { path: vigilMemories, limits: { memory: 4000 } },
            { path: '~/agents/work', label: 'Work agent', limits: { user: 2000 } },
          ],
        },
      }),
    );
    const config = await readMemoryConfig(file);
    // Hermes's folder (optional: it does not exist here) is left out of this comparison.
    const directories = (await resolveMemoryDirectories({ config, vigilMemories, env: {}, home: temp.dir })).filter(
      (directory) => directory.isOptional !== true,
    );
    expect(directories).toHaveLength(2);
    expect(directories[0]).toMatchObject({ source: 'vigil', limits: { memory: 4000, user: 1375 } });
    expect(directories[1]).toMatchObject({
      source: 'config',
      label: 'Work agent',
      path: path.join(temp.dir, 'agents', 'work'),
      limits: { memory: 2200, user: 2000 },
    });
  });

  it('can leave the defaults out', async () => {
    const file = path.join(temp.dir, 'config.json');
    await writeFile(
      file,
      JSON.stringify({ memory: { includeDefaults: false, directories: [{ path: '/srv/agent-memory' }] } }),
    );
    const directories = await resolveMemoryDirectories({
      config: await readMemoryConfig(file),
      vigilMemories: path.join(temp.dir, 'v'),
      env: {},
      home: temp.dir,
    });
    expect(directories.map((directory) => [directory.path, directory.source])).toEqual([
      ['/srv/agent-memory', 'config'],
    ]);
  });

  it('refuses a bad config with an error naming the field', async () => {
    const limit = await configError(
      JSON.stringify({ memory: { directories: [{ path: '/x', limits: { memory: 'big' } }] } }),
    );
    expect(limit.code).toBe('invalid_request');
    expect(limit.message).toContain('memory.directories.0.limits.memory');
    const relative = await configError(JSON.stringify({ memory: { directories: [{ path: 'relative/dir' }] } }));
    expect(relative.message).toContain('memory.directories.0.path');
    expect(relative.message).toContain('absolute path or start with ~/');
    const unknown = await configError(JSON.stringify({ memory: { directorys: [] } }));
    expect(unknown.message).toContain('directorys');
    const json = await configError('{ "memory": ');
    expect(json.message).toContain('is not valid JSON');
  });
});
