import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portableInvocation } from '../../connect/portable-invocation';
import { runVigil, vigilEntry } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let temp: Awaited<ReturnType<typeof makeTempDir>>;

beforeEach(async () => {
  temp = await makeTempDir('vigil-connect-portable-');
  await mkdir(path.join(temp.dir, 'home'));
  await mkdir(path.join(temp.dir, 'project', 'node_modules', '.bin'), { recursive: true });
});

afterEach(async () => temp.remove());

const absolute = { command: process.execPath, args: [vigilEntry] };

describe('what a project file calls vigil by', () => {
  it('is "npx vigil" where the project has Vigil installed, "vigil" where PATH has this install, else the absolute path', async () => {
    const project = path.join(temp.dir, 'project');
    const bin = path.join(temp.dir, 'bin');
    await mkdir(bin);
    expect(await portableInvocation(absolute, project, { PATH: bin })).toEqual({ vigil: absolute, isPortable: false });
    await symlink(vigilEntry, path.join(bin, 'vigil'));
    expect(await portableInvocation(absolute, project, { PATH: bin })).toEqual({
      vigil: { command: 'vigil', args: [] },
      isPortable: true,
    });
    await writeFile(path.join(bin, 'other'), '');
    expect((await portableInvocation(absolute, project, { PATH: path.join(temp.dir, 'none') })).isPortable).toBe(false);
    await symlink(vigilEntry, path.join(project, 'node_modules', '.bin', 'vigil'));
    expect(await portableInvocation(absolute, project, { PATH: '' })).toEqual({
      vigil: { command: 'npx', args: ['vigil'] },
      isPortable: true,
    });
  });
});

describe('vigil connect --write, stdio, in a project with Vigil installed and the default data folder', () => {
  it('writes a .mcp.json that names no path of this machine', async () => {
    const project = path.join(temp.dir, 'project');
    const home = path.join(temp.dir, 'home');
    await symlink(vigilEntry, path.join(project, 'node_modules', '.bin', 'vigil'));
    const run = await runVigil(['connect', 'claude-code', '--write'], {
      cwd: project,
      env: { HOME: home, VIGIL_HOME: path.join(home, '.vigil') },
    });
    expect(run.code, run.stderr).toBe(0);
    const text = await readFile(path.join(project, '.mcp.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({ mcpServers: { vigil: { command: 'npx', args: ['vigil', 'mcp'] } } });
    expect(text).not.toContain(temp.dir);
    expect(run.stdout).not.toContain('names paths of this machine');
  });

  it("says so when the entry must name this machine's paths", async () => {
    const project = path.join(temp.dir, 'project');
    const run = await runVigil(['connect', 'claude-code'], {
      cwd: project,
      env: { HOME: path.join(temp.dir, 'home'), VIGIL_HOME: path.join(temp.dir, 'data'), PATH: '' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'This entry names paths of this machine (Node and Vigil): keep it out of version control',
    );
  });
});
