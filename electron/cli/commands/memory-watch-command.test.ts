import { execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, spawnVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

/** `vigil memory watch` as a real process, a folder that Hermes creates later, and Hermes's own adds. */

const hermesTool = path.join(repoRoot, 'electron/hermes/test-support/hermes_memory_tool.py');

/** A running watch: its output so far, waits for a line, and its exit. */
interface Watch {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves with the stream's text once `pattern` matches it (fails the test after 60 s). */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  readonly exited: Promise<number | null>;
}

function watch(args: readonly string[], env: NodeJS.ProcessEnv): Watch {
  const child = spawnVigil(['memory', 'watch', ...args], { env });
  const text = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8').on('data', (chunk: string) => {
      text[stream] += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    waitFor: (stream, pattern) =>
      new Promise((resolve, reject) => {
        const timeout = setTimeout(
          () =>
            reject(new Error(`no ${String(pattern)} on ${stream}; it has:\n${text[stream]}\nstderr:\n${text.stderr}`)),
          60_000,
        );
        const check = (): void => {
          if (pattern.test(text[stream])) {
            clearTimeout(timeout);
            resolve(text[stream]);
          } else waiters.push(check);
        };
        check();
      }),
  };
}

function hermesAdd(file: string, entry: string): void {
  execFileSync('python3', [hermesTool, 'add', file, entry]);
}

let base: string;
let remove: () => Promise<void>;
let running: Watch | undefined;
beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-memory-watch-'));
});
afterEach(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  running = undefined;
  await remove();
});

describe('vigil memory watch', () => {
  it('waits for a memory folder that does not exist yet, keeps running, and reports its first add', async () => {
    const hermesHome = path.join(base, 'hermes');
    const memories = path.join(hermesHome, 'memories');
    const env = { HOME: path.join(base, 'home'), VIGIL_HOME: path.join(base, 'vigil'), HERMES_HOME: hermesHome };
    running = watch(['--dir', memories], env);
    await running.waitFor('stderr', /Waiting for .*hermes\/memories to appear/);
    mkdirSync(memories, { recursive: true });
    hermesAdd(path.join(memories, 'MEMORY.md'), 'the user prefers tabs');
    await running.waitFor('stderr', /hermes\/memories appeared; watching it now\./);
    const out = await running.waitFor('stdout', /MEMORY\.md in .*: created with 1 entry/);
    expect(out).not.toContain('(by Vigil)');
    hermesAdd(path.join(memories, 'MEMORY.md'), 'the project uses pnpm');
    await running.waitFor('stdout', /MEMORY\.md in .*: \+1 −0 entries/);
    appendFileSync(path.join(memories, 'MEMORY.md'), '- deploys on Fridays\n');
    await running.waitFor('stdout', /\+1 −1 entries, .*; appended to the last entry: "- deploys on Fridays"/);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 120_000);

  it("without --dir follows Hermes's active profile, and a later profile switch", async () => {
    const home = path.join(base, 'home');
    const root = path.join(home, '.hermes');
    mkdirSync(path.join(root, 'profiles', 'coder'), { recursive: true });
    mkdirSync(path.join(root, 'profiles', 'writer'), { recursive: true });
    writeFileSync(path.join(root, 'active_profile'), 'coder\n');
    const env = { HOME: home, VIGIL_HOME: path.join(base, 'vigil'), HERMES_HOME: '' };
    running = watch([], env);
    await running.waitFor('stderr', /Waiting for .*\.hermes\/profiles\/coder\/memories to appear/);
    const coder = path.join(root, 'profiles', 'coder', 'memories');
    mkdirSync(coder);
    hermesAdd(path.join(coder, 'MEMORY.md'), 'coder note');
    await running.waitFor('stdout', /MEMORY\.md in .*profiles\/coder\/memories: created with 1 entry/);

    writeFileSync(path.join(root, 'active_profile'), 'writer\n');
    await running.waitFor('stderr', /active profile changed: its memories are in .*profiles\/writer\/memories now/);
    await running.waitFor('stderr', /Waiting for .*profiles\/writer\/memories to appear/);
    const writer = path.join(root, 'profiles', 'writer', 'memories');
    mkdirSync(writer);
    hermesAdd(path.join(writer, 'USER.md'), 'writer note');
    await running.waitFor('stdout', /USER\.md in .*profiles\/writer\/memories: created with 1 entry/);
    running.child.kill('SIGINT');
    expect(await running.exited).toBe(0);
  }, 120_000);
});
