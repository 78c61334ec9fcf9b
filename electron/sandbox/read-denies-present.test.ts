import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScriptInFreshProcess, sandboxModuleUrl } from '../test-support/run-vigil';
import { testSeed } from '../test-support/seeded-random';
import { readDeniesPresent } from './read-denies-present';

/**
 * The read denies handed to the sandbox engine: those whose name is not there at all are left out,
 * which must change nothing the engine builds (a differential against the engine itself, with
 * random homes) and must not go stale (a credential store made between two commands is hidden from
 * the second).
 */
const isLinux = process.platform === 'linux';
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-read-denies-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the read denies that may matter', () => {
  it('keeps every entry off Linux, where the engine checks its rules at each access rather than at the wrap', async () => {
    const absent = path.join(dir, 'made-later');
    const denies = [absent, path.join(dir, 'also-absent')];
    expect(await readDeniesPresent(denies, () => [], 'darwin')).toEqual(denies);
    expect(await readDeniesPresent(denies, () => [], 'linux')).toEqual([]);
  });

  it('leaves out names that are not there, and keeps every other entry', async () => {
    const at = (name: string): string => path.join(dir, name);
    await mkdir(at('folder'));
    await writeFile(at('file'), 'secret');
    await symlink(at('nowhere'), at('dangling'));
    const denies = [
      at('absent'),
      at('folder'),
      at('file'),
      at('dangling'),
      at('file/below'),
      at('absent/deeper'),
      at('abs[e]nt'),
      at('absent-*'),
      `${at('absent')}/`,
      `${dir}/x/../absent`,
      'relative/absent',
      at('covering'),
    ];
    const kept = await readDeniesPresent(denies, () => [path.join(at('covering'), '.npm', '_logs'), '/dev/null']);
    expect(kept).toEqual([
      at('folder'),
      at('file'),
      at('dangling'),
      at('abs[e]nt'),
      at('absent-*'),
      `${at('absent')}/`,
      `${dir}/x/../absent`,
      'relative/absent',
      at('covering'),
    ]);
  });

  it.runIf(isLinux)('change nothing the engine builds, for random homes (differential)', async () => {
    const seed = testSeed(31);
    const result = await runScriptInFreshProcess(
      dir,
      `
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const { importEngine } = await import(${JSON.stringify(sandboxModuleUrl('engine-import.ts'))});
const { withEngineForksAnswered } = await import(${JSON.stringify(sandboxModuleUrl('engine-forks.ts'))});
const { readDeniesPresent } = await import(${JSON.stringify(sandboxModuleUrl('read-denies-present.ts'))});
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
let state = ${seed};
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
const base = ${JSON.stringify(dir)};
const engineDir = path.join(base, 'engine');
const work = path.join(base, 'work');
mkdirSync(engineDir); mkdirSync(work);
runtime.acquireEngine();
// Starts the engine with Vigil's configuration.
await runtime.wrapInSandbox({ command: 'true', directory: engineDir, profile: { denyRead: [], allowWrite: [work], denyWrite: [], temp: work }, network: { deniedDomains: [] } });
runtime.commandEnded();
const engine = (await importEngine()).SandboxManager;
const names = ['.ssh', '.aws', '.config/gh', '.docker/config.json', '.netrc', '.kube', '.npm/_logs', '.claude/debug', 'work-link'];
const wrap = async (denyRead) => {
  const line = await withEngineForksAnswered('/bin/sh', engineDir, () => engine.wrapWithSandbox('true', '/bin/sh', { filesystem: { denyRead, allowRead: [], allowWrite: [work], denyWrite: [] } }));
  engine.cleanupAfterCommand();
  return line.replace(/claude-empty-[A-Za-z0-9]+/g, 'EMPTY');
};
process.chdir(engineDir);
let compared = 0; let dropped = 0; const differing = [];
for (let round = 0; round < 12; round += 1) {
  const home = mkdtempSync(path.join(base, 'home-'));
  // The engine's own write defaults are under the home it reads from the environment.
  process.env.HOME = home;
  for (const name of names) {
    const full = path.join(home, name);
    const pick = random();
    mkdirSync(path.dirname(full), { recursive: true });
    if (pick < 0.2) mkdirSync(full, { recursive: true });
    else if (pick < 0.35) writeFileSync(full, 'secret');
    else if (pick < 0.45) symlinkSync(path.join(home, 'nowhere'), full);
    else if (pick < 0.55) symlinkSync(work, full);
  }
  const denyRead = [...names.map((name) => path.join(home, name)), path.join(home, 'absent', 'deeper')];
  const defaults = (await importEngine()).getDefaultWritePaths();
  const present = await readDeniesPresent(denyRead, () => defaults);
  dropped += denyRead.length - present.length;
  const [full, filtered] = [await wrap(denyRead), await wrap(present)];
  compared += 1;
  if (full !== filtered) differing.push({ round, denyRead, present });
}
await runtime.releaseEngine();
console.log(JSON.stringify({ compared, dropped, differing }));
`,
    );
    expect(result['differing']).toEqual([]);
    expect(result['compared']).toBe(12);
    expect(result['dropped']).toBeGreaterThan(12);
  });

  it.runIf(isLinux)('do not go stale: a credential store made after one command is hidden from the next', async () => {
    const home = path.join(dir, 'home');
    const engine = path.join(dir, 'engine');
    const work = path.join(dir, 'work');
    await Promise.all([mkdir(home), mkdir(engine), mkdir(work)]);
    const store = path.join(home, '.aws');
    const result = await runScriptInFreshProcess(
      dir,
      `
import { mkdirSync, writeFileSync } from 'node:fs';
const { executeCommand } = await import(${JSON.stringify(sandboxModuleUrl('command-execution.ts'))});
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
runtime.acquireEngine();
const request = {
  command: 'cat ${store}/credentials; ls -A ${store}; true',
  cwd: ${JSON.stringify(work)},
  env: { PATH: process.env.PATH },
  timeoutMs: 60_000,
  outputCapBytes: 1 << 16,
  wrap: {
    directory: ${JSON.stringify(engine)},
    denyRead: [${JSON.stringify(store)}],
    allowWrite: [${JSON.stringify(work)}],
    denyWrite: [],
    temp: ${JSON.stringify(work)},
    network: { deniedDomains: [] },
  },
};
const before = await executeCommand(request, new AbortController().signal);
mkdirSync(${JSON.stringify(store)});
writeFileSync(${JSON.stringify(path.join(store, 'credentials'))}, 'aws_secret_access_key = planted-secret');
const after = await executeCommand(request, new AbortController().signal);
await runtime.releaseEngine();
console.log(JSON.stringify({ before: before.stdout + before.stderr, after: after.stdout + after.stderr, code: after.exit_code }));
`,
    );
    expect(result['before']).toMatch(/No such file/u);
    expect(result['code']).toBe(0);
    expect(result['after']).not.toContain('planted-secret');
    // Hidden: an empty folder stands there in the sandbox.
    expect(result['after']).toMatch(/credentials: No such file/u);
  });
});
