import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { writeFilesAtomic } from './write-files-atomic';
import { isVigilTempFile } from './vigil-temp-name';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-batch-'));
});
afterEach(async () => {
  await remove();
});

describe('writeFilesAtomic', () => {
  it('writes many files across new directories, each atomically, and reports each one', async () => {
    const existing = path.join(dir, 'src', 'keep-mode.sh');
    mkdirSync(path.dirname(existing));
    writeFileSync(existing, 'old', { mode: 0o755 });
    const entries = [
      { target: existing, content: 'new script' },
      ...Array.from({ length: 300 }, (_, index) => ({
        target: path.join(dir, 'src', `group-${index % 7}`, `file-${index}.txt`),
        content: `file ${index}\n`,
      })),
      { target: path.join(dir, 'bin', 'tool'), content: new Uint8Array([0, 1, 2]), mode: 0o700 },
    ];
    const results = await writeFilesAtomic(entries, { concurrency: 8 });
    expect(results).toHaveLength(entries.length);
    expect(results[0]).toMatchObject({ path: existing, created: false, dirsCreated: [] });
    expect(statSync(existing).mode & 0o777).toBe(0o755);
    for (let index = 0; index < 300; index += 1) {
      expect(readFileSync(path.join(dir, 'src', `group-${index % 7}`, `file-${index}.txt`), 'utf8')).toBe(
        `file ${index}\n`,
      );
    }
    const created = results.flatMap((result) => result.dirsCreated).sort();
    expect(created).toEqual(
      [
        ...Array.from({ length: 7 }, (_, group) => path.join(dir, 'src', `group-${group}`)),
        path.join(dir, 'bin'),
      ].sort(),
    );
    expect(statSync(path.join(dir, 'bin', 'tool')).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => isVigilTempFile(name))).toEqual([]);
  });

  it('refuses a batch that names the same file twice, before writing anything', async () => {
    const target = path.join(dir, 'twice.txt');
    await expect(
      writeFilesAtomic([
        { target: path.join(dir, 'first.txt'), content: '1' },
        { target, content: 'a' },
        { target: path.join(dir, '.', 'twice.txt'), content: 'b' },
      ]),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops at the first failure and says which files were written and which were not', async () => {
    mkdirSync(path.join(dir, 'a-directory'));
    const entries = [
      { target: path.join(dir, 'ok.txt'), content: 'ok' },
      { target: path.join(dir, 'a-directory'), content: 'cannot' },
      ...Array.from({ length: 200 }, (_, index) => ({
        target: path.join(dir, `later-${index}.txt`),
        content: 'later',
      })),
    ];
    const error: unknown = await writeFilesAtomic(entries, { concurrency: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'wrong_kind',
      details: {
        written: [path.join(dir, 'ok.txt')],
        failed: [{ path: path.join(dir, 'a-directory'), code: 'wrong_kind' }],
      },
    });
    expect(readdirSync(dir).sort()).toEqual(['a-directory', 'ok.txt']);
  });
});
