import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isVigilTempFile } from '../../files/vigil-temp-name';
import { repoRoot, runVigil, vigilEntry } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-write-cli-'));
});
afterEach(async () => {
  await remove();
});

/** Resolves once `check` holds, re-checking whenever the event loop is free (waits on a state, not a duration). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('vigil write', () => {
  it('writes standard input atomically, quietly, exactly (every byte value), with --mode and --json', async () => {
    const bytes = Buffer.from(Array.from({ length: 1024 }, (_, index) => index % 256));
    const [plain, json] = await Promise.all([
      runVigil(['write', path.join(dir, 'out.bin')], { input: bytes }),
      runVigil(['write', path.join(dir, 'deep', 'er', 'key.txt'), '--mode', '0600', '--json'], { input: 'secret\n' }),
    ]);
    expect(plain).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(path.join(dir, 'out.bin')).equals(bytes)).toBe(true);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      path: path.join(dir, 'deep', 'er', 'key.txt'),
      bytesWritten: 7,
      created: true,
      dirsCreated: [path.join(dir, 'deep'), path.join(dir, 'deep', 'er')],
    });
    expect(statSync(path.join(dir, 'deep', 'er', 'key.txt')).mode & 0o777).toBe(0o600);
  });

  it('works as a sponge: the file being read is the file being written', async () => {
    const target = path.join(dir, 'names.txt');
    writeFileSync(target, 'carol\nalice\nbob\n'.repeat(20_000));
    const input = openSync(target, 'r');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', vigilEntry, 'write', target], {
        cwd: repoRoot,
        stdio: [input, 'pipe', 'pipe'],
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
    } finally {
      closeSync(input);
    }
    expect(readFileSync(target, 'utf8')).toBe('carol\nalice\nbob\n'.repeat(20_000));
  });

  it('refuses a bad --mode and a directory target, leaving everything as it was', async () => {
    mkdirSync(path.join(dir, 'folder'));
    const [mode, folder] = await Promise.all([
      runVigil(['write', path.join(dir, 'x.txt'), '--mode', 'rw-r--r--'], { input: 'x' }),
      runVigil(['write', path.join(dir, 'folder')], { input: 'x' }),
    ]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--mode takes octal');
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain('is a directory');
    expect(readdirSync(dir)).toEqual(['folder']);
  });

  it('leaves the target intact when killed mid-stream; SIGTERM cleans up itself, SIGKILL is swept by the next write', async () => {
    const target = path.join(dir, 'data.txt');
    writeFileSync(target, 'original');
    const temps = (): string[] => readdirSync(dir).filter((name) => isVigilTempFile(name));

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', vigilEntry, 'write', target], {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.write('partial new content that never finishes');
      await until(() => temps().length === 1);
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('close', (code, received) => resolve([code, received])),
      );
      child.kill(signal);
      const [code, received] = await closed;
      expect(readFileSync(target, 'utf8')).toBe('original');
      if (signal === 'SIGTERM') {
        expect(code).toBe(1);
        expect(temps()).toEqual([]);
      } else {
        expect(received).toBe('SIGKILL');
        expect(temps()).toHaveLength(1);
      }
    }
    const next = await runVigil(['write', target], { input: 'replaced' });
    expect(next.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['data.txt']);
    expect(readFileSync(target, 'utf8')).toBe('replaced');
  });
});
