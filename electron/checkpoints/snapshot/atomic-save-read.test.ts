import { spawn } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { readForHash, type FileRead } from './async-file-reader';
import { readBlocking } from './blocking-io';

/*
 * A checkpoint's read of a file checks the file opened is the workspace's (walk-swap.test.ts). A file
 * saved atomically (a new file renamed over it, as editors, agents' tools and Vigil itself save) is
 * at its name all along: its read is never "vanished", which removed it from the checkpoint as if
 * it had been deleted (a restore to that checkpoint deletes it). About one read in ten did so here.
 */

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await makeTempDir('vigil-atomic-save-read-'));
  dir = realpathSync(dir);
});
afterEach(async () => {
  await remove();
});

/** The main thread's reader and the hashing workers' one, each told where the file must be. */
const readers: ReadonlyArray<[string, (file: string) => Promise<FileRead>]> = [
  ['asynchronous', (file) => readForHash(file, false, 1 << 20, undefined, { within: dir, expected: file })],
  ['blocking (hash workers)', (file) => Promise.resolve(readBlocking(file, 1 << 20, undefined, file))],
];

describe.each(readers)('reading a file another process saves atomically over and over, %s', (_name, read) => {
  it('reads a version of it every time, never "vanished"', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'v0\n');
    const script = `const fs = require('fs'); const file = ${JSON.stringify(file)};
      for (let i = 1; ; i += 1) { fs.writeFileSync(file + '.tmp', 'v' + i + '\\n'); fs.renameSync(file + '.tmp', file); }`;
    const saver = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const kinds = new Map<string, number>();
    try {
      // The saver is at work before the reads start.
      while (readFileSync(file, 'utf8') === 'v0\n') await sleep(5);
      for (let round = 0; round < 12_000; round += 1) {
        const { kind } = await read(file);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    } finally {
      saver.kill('SIGKILL');
    }
    expect(Object.fromEntries(kinds)).toEqual({ read: 12_000 });
  });
});
