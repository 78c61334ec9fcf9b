import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../lib/process/is-process-alive';
import { childEnv, repoRoot, tsxLoader } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { agentSettings } from '../workspace';
import { silentLogger } from '../logging/logger';
import { forgetPlaceholders, placePlaceholders } from './mount-placeholders';
import { placeholderMode, recoverPlaceholders } from './placeholder-record';
import { until } from './test-support/engine-bridges';
import { createSandboxWorld, type SandboxWorld } from './test-support/sandbox-fixture';

const isLinux = process.platform === 'linux';
const coreChild = path.join(repoRoot, 'electron/sandbox/test-support/sandbox-core.child.ts');
/** The folders the sandbox keeps read-only at a root while absent: the engine mounts an empty folder at each. */
const absentFolders = agentSettings.filter((setting) => setting.isFolder).map((setting) => setting.name);

/** The root's entries, sorted. */
function entries(folder: string): string[] {
  return readdirSync(folder).sort();
}

describe.runIf(isLinux)('the placeholders the sandbox makes in a root for the paths it protects', () => {
  let world: SandboxWorld;
  beforeEach(async () => {
    world = await createSandboxWorld({ 'src/app.ts': 'export {};\n' });
  });
  afterEach(async () => {
    await world.close();
  });

  it('keep the protected paths unwritable while the command runs, and are gone after it, as before it', async () => {
    const attempts = absentFolders.map(
      (name) => `! mkdir -p ${name}/x 2>/dev/null && ! touch ${name}/settings.json 2>/dev/null`,
    );
    expect(await world.run(attempts.join(' && '))).toMatchObject({ exit_code: 0 });
    await world.sandbox.released();
    expect(entries(world.workspace)).toEqual(['src']);
  });

  it('stay while another process runs a command on one: the process that made it ends its commands without unprotecting it', async () => {
    const claude = path.join(world.workspace, '.claude');
    // Another Vigil process (this one, as an in-process spawner) runs a command in the root first: it makes .claude.
    const records = path.join(world.vigilHome, 'sandbox', 'placeholders');
    const other = await placePlaceholders([world.workspace], [path.join(claude, '.vigil-read-only')], records);
    expect(existsSync(claude)).toBe(true);
    // The spawn server's command finds .claude there and keeps it read-only as an existing folder.
    const running = world.run(
      'echo > started; while [ ! -e go ]; do sleep 0.05; done; mkdir -p .claude; echo hook > .claude/settings.json; true',
    );
    await until(() => existsSync(path.join(world.workspace, 'started')));
    // The other process's command ends: removing its placeholder would detach the running sandbox's read-only mount.
    await other.release();
    writeFileSync(path.join(world.workspace, 'go'), '');
    expect(await running).toMatchObject({ exit_code: 0 });
    expect(existsSync(path.join(claude, 'settings.json'))).toBe(false);
    await world.sandbox.released();
    await forgetPlaceholders();
    expect(entries(world.workspace)).toEqual(['go', 'src', 'started']);
  });

  it("stay while a command runs on one a stopped process left, when another start clears that process's record", async () => {
    const claude = path.join(world.workspace, '.claude');
    // A process (pid 4,194,305: none) stopped and left .claude, and its record.
    const records = path.join(world.vigilHome, 'sandbox', 'placeholders');
    mkdirSync(records, { recursive: true });
    const since = String(BigInt(Date.now() - 1000) * 1_000_000n);
    const record = { pid: 4_194_305, startedAt: 'boot:1', since, paths: [claude] };
    writeFileSync(path.join(records, '4194305-x.json'), JSON.stringify(record));
    mkdirSync(claude);
    chmodSync(claude, placeholderMode);
    const running = world.run(
      'echo > started; while [ ! -e go ]; do sleep 0.05; done; mkdir -p .claude; echo hook > .claude/settings.json; true',
    );
    await until(() => existsSync(path.join(world.workspace, 'started')));
    // Another start clears the stopped process's record while the command holds .claude read-only.
    await recoverPlaceholders(records, silentLogger);
    writeFileSync(path.join(world.workspace, 'go'), '');
    expect(await running).toMatchObject({ exit_code: 0 });
    expect(existsSync(path.join(claude, 'settings.json'))).toBe(false);
    await world.sandbox.released();
    expect(entries(world.workspace)).toEqual(['go', 'src', 'started']);
  });

  it('leave a marked empty folder the user made at a protected path where it was', async () => {
    const claude = path.join(world.workspace, '.claude');
    mkdirSync(claude);
    chmodSync(claude, placeholderMode);
    expect(await world.run('true')).toMatchObject({ exit_code: 0 });
    await world.sandbox.released();
    expect(entries(world.workspace)).toEqual(['.claude', 'src']);
    expect(entries(claude)).toEqual([]);
  });

  it('are removed when the spawn server was killed (SIGKILL) while a command ran, and only those', async () => {
    const running = world.run('echo > started; sleep 60').catch((error: unknown) => error);
    await until(() => existsSync(path.join(world.workspace, 'started')));
    // A placeholder the user filled while the command ran is the user's now.
    writeFileSync(path.join(world.workspace, '.vscode', 'settings.json'), '{}\n');
    process.kill((await world.sandbox.spawnerPid()) ?? 0, 'SIGKILL');
    expect(await running).toMatchObject({ code: 'io_error' });
    // An empty folder the user makes after the crash is theirs too.
    mkdirSync(path.join(world.workspace, 'later'));
    expect(await world.run('true')).toMatchObject({ exit_code: 0 });
    await world.sandbox.released();
    expect(entries(world.workspace)).toEqual(['.vscode', 'later', 'src', 'started']);
    expect(entries(path.join(world.workspace, '.vscode'))).toEqual(['settings.json']);
  });
});

describe.runIf(isLinux)('the placeholders a killed core left', () => {
  let base: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-sbx-core-'));
  });
  afterEach(async () => {
    await remove();
  });

  /** Starts a core stand-in running a sandboxed `sleep`; resolves once the command runs, with the core and its spawn server. */
  async function coreRunningSleep(): Promise<{ readonly core: ChildProcess; readonly spawner: number }> {
    const core = spawn(process.execPath, ['--import', tsxLoader, coreChild, base], {
      cwd: repoRoot,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(core.stdout, 'data')) as [Buffer];
    const { spawner } = JSON.parse(line.toString()) as { spawner: number };
    await until(() => existsSync(path.join(base, 'ws', 'started')));
    return { core, spawner };
  }

  for (const killed of ['the core', 'the core and its spawn server (a power cut)'] as const) {
    it(`are removed at the next start when ${killed} was killed (SIGKILL) while a command ran`, async () => {
      const { core, spawner } = await coreRunningSleep();
      expect(entries(path.join(base, 'ws'))).toEqual([...absentFolders].sort().concat(['src', 'started']));
      core.kill('SIGKILL');
      if (killed !== 'the core') process.kill(spawner, 'SIGKILL');
      await until(() => !isProcessAlive(spawner) && core.exitCode === null && core.signalCode !== null);
      const world = await createSandboxWorld({}, { base });
      try {
        await world.sandbox.released();
        expect(entries(world.workspace)).toEqual(['src', 'started']);
      } finally {
        await world.sandbox.dispose();
      }
    });
  }
});
