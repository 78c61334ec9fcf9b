import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScriptInFreshProcess, sandboxModuleUrl } from '../test-support/run-vigil';

/**
 * A sandboxed command is answered as soon as it exited, before the engine removes the mount points
 * it made for the command (checked in a fresh process: the engine is process-wide).
 */
const isLinux = process.platform === 'linux';
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-command-execution-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('running a sandboxed command', () => {
  it.runIf(isLinux)(
    'tells its result before the mount points are removed, and removes them before it settles',
    async () => {
      const engine = path.join(dir, 'engine');
      const work = path.join(dir, 'work');
      await Promise.all([mkdir(engine), mkdir(work)]);
      // An absent protected folder: the engine makes it on the host as a read-only mount point, and removes it after.
      const placeholder = path.join(work, '.claude');
      const result = await runScriptInFreshProcess(
        dir,
        `
import { existsSync } from 'node:fs';
const { executeCommand } = await import(${JSON.stringify(sandboxModuleUrl('command-execution.ts'))});
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
runtime.acquireEngine();
let isThereAtAnswer: boolean | undefined;
const request = {
  command: 'touch made && ! touch .claude/settings.json && [ "$PWD" = ${work} ]',
  cwd: ${JSON.stringify(work)},
  env: { PATH: process.env.PATH },
  timeoutMs: 60_000,
  outputCapBytes: 1 << 16,
  wrap: {
    directory: ${JSON.stringify(engine)},
    denyRead: [],
    allowWrite: [${JSON.stringify(work)}],
    denyWrite: [${JSON.stringify(path.join(placeholder, '.vigil-read-only'))}],
    temp: ${JSON.stringify(work)},
    network: { deniedDomains: [] },
  },
};
const done = await executeCommand(request, new AbortController().signal, undefined, () => {
  isThereAtAnswer = existsSync(${JSON.stringify(placeholder)});
});
const isThereAfter = existsSync(${JSON.stringify(placeholder)});
await runtime.releaseEngine();
console.log(JSON.stringify({ code: done.exit_code, isThereAtAnswer, isThereAfter, made: existsSync(${JSON.stringify(path.join(work, 'made'))}) }));
`,
      );
      expect(result).toEqual({ code: 0, isThereAtAnswer: true, isThereAfter: false, made: true });
    },
  );
});
