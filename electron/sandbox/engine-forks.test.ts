import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runScriptInFreshProcess, sandboxModuleUrl } from '../test-support/run-vigil';

/**
 * The engine's `which /bin/sh` and its ripgrep scan of the folder it runs from are answered
 * in-process (engine-forks.ts): checked in fresh processes with the real engine and bubblewrap,
 * since the stand-ins are process-wide. The engine's calls they rely on are pinned to its version.
 */
const engineDist = path.join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist');
const isLinux = process.platform === 'linux';
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-engine-forks-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const inFreshProcess = (source: string): Promise<Record<string, unknown>> => runScriptInFreshProcess(dir, source);

/** A script that wraps `command` from `folder` (writable: `writable`), runs it with /bin/sh and prints what happened. */
function wrapAndRun(folder: string, writable: string, command: string): string {
  return `
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
const { answeredForks } = await import(${JSON.stringify(sandboxModuleUrl('engine-forks.ts'))});
runtime.acquireEngine();
const wrapped: string = await runtime.wrapInSandbox({
  command: ${JSON.stringify(command)},
  directory: ${JSON.stringify(folder)},
  profile: { denyRead: [], allowWrite: [${JSON.stringify(writable)}], denyWrite: [], temp: ${JSON.stringify(writable)} },
  network: { deniedDomains: [] },
});
const outcome = await promisify(execFile)('/bin/sh', ['-c', wrapped]).then(
  (done) => ({ code: 0, stderr: done.stderr }),
  (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr }),
);
runtime.commandEnded();
await runtime.releaseEngine();
console.log(JSON.stringify({ ...outcome, which: answeredForks.which, listings: answeredForks.listings }));
`;
}

describe('the engine forks answered in-process', () => {
  it('is the engine version whose `which` and ripgrep calls engine-forks.ts answers', async () => {
    const { version } = JSON.parse(await readFile(path.join(engineDist, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const which = await readFile(path.join(engineDist, 'utils/which.js'), 'utf8');
    const ripgrep = await readFile(path.join(engineDist, 'utils/ripgrep.js'), 'utf8');
    // On a new engine version: check how it looks up its shell and scans the folder it runs from
    // (utils/which.js, utils/ripgrep.js, linuxGetMandatoryDenyPaths), then update the version here.
    expect(version).toBe('0.0.83');
    expect(which).toContain("import { spawnSync } from 'node:child_process';");
    expect(which).toContain("spawnSync('which', [bin], {\n        encoding: 'utf8',");
    expect(ripgrep).toContain("import { spawn } from 'child_process';");
    expect(ripgrep).toContain('const child = spawn(command, [...commandArgs, ...args, target], {');
  });

  it.runIf(isLinux)(
    'wraps a command from an empty folder without forking `which` or ripgrep, and the command runs sandboxed',
    async () => {
      const folder = path.join(dir, 'engine');
      const writable = path.join(dir, 'work');
      await Promise.all([mkdir(folder), mkdir(writable)]);
      const result = await inFreshProcess(
        wrapAndRun(folder, writable, `touch ${writable}/made && ! touch ${dir}/outside`),
      );
      expect(result).toMatchObject({ code: 0, which: 1, listings: 1 });
      await expect(readFile(path.join(writable, 'made'), 'utf8')).resolves.toBe('');
      await expect(readFile(path.join(dir, 'outside'))).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  it.runIf(isLinux)(
    'leaves the scan to ripgrep when the folder holds something, and what it finds stays protected',
    async () => {
      // Run from a writable folder holding a repository: the engine's own scan must find its hooks folder.
      const folder = path.join(dir, 'work');
      await mkdir(path.join(folder, 'nested/.git/hooks'), { recursive: true });
      await writeFile(path.join(folder, 'nested/.git/HEAD'), 'ref: refs/heads/main\n');
      const result = await inFreshProcess(
        wrapAndRun(folder, folder, `touch ${folder}/made && ! touch ${folder}/nested/.git/hooks/pre-commit`),
      );
      expect(result).toMatchObject({ code: 0, which: 1, listings: 0 });
      await expect(readFile(path.join(folder, 'nested/.git/hooks/pre-commit'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
    },
  );
});
