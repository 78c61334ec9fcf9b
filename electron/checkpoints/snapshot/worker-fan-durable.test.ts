import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { hashObject } from '../../git-store';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-fan-durable.child.ts');

/** The child's file size limit: far above anything but the big file's loose object. */
const fileSizeLimit = 512 * 1024;

describe("a hashing worker's loose write that fails after making its fan-out folder", () => {
  let base: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-worker-fan-'));
  });
  afterEach(async () => {
    await remove();
  });

  it('leaves nothing in the folder, which is durable in objects/ before a later checkpoint that writes into it answers', async () => {
    const root = path.join(base, 'home', 'checkpoints');
    const dir = path.join(base, 'work');
    mkdirSync(dir);
    // Random bytes: their zlib stream stays far above the limit, so the worker's write fails with EFBIG.
    const big = randomBytes(4 * fileSizeLimit);
    const fan = hashObject('blob', big).slice(0, 2);
    let text = 'stored first\n';
    for (let index = 0; hashObject('blob', Buffer.from(text)).startsWith(fan); index += 1) text = `stored ${index}\n`;
    writeFileSync(path.join(dir, 'a.txt'), text);
    // One big file, so the checkpoint's first failure is its write whatever order the folder lists the files in
    // (the worker stops at the first failure: a second big file listed first would fail in a folder of its own).
    writeFileSync(path.join(dir, 'z1.data'), big);
    const { stdout } = await promisify(execFile)(
      'prlimit',
      [`--fsize=${fileSizeLimit}`, process.execPath, '--import', 'tsx', child, root, dir, fan],
      { cwd: repoRoot },
    );
    const report = JSON.parse(stdout) as {
      objectsDir: string;
      isMade: boolean;
      leftInFan: string[];
      smallObject: string;
      steps: { kind: string; synced: string[] }[];
    };
    // The worker made the folder, its write failed (failing that checkpoint), and the next checkpoint wrote into it.
    expect(report.isMade).toBe(true);
    // Before the fix the worker's write stopped short without a word (writeSync's count unread) and the truncated
    // object was renamed into place under z1's id, failing the next checkpoint (Z_BUF_ERROR); now nothing is left.
    expect(report.leftInFan).toEqual([]);
    expect(report.steps.map((step) => step.kind)).toEqual(['failed: io_error', 'created']);
    const [first, second] = report.steps;
    expect(second?.synced).toContain(report.smallObject);
    // Before the fix neither checkpoint fsynced objects/: the folder was told to the main thread with the
    // worker's next stored result, and none came after the failed writes.
    expect([...(first?.synced ?? []), ...(second?.synced ?? [])]).toContain(report.objectsDir);
  });
});
