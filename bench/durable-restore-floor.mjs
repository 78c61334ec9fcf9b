// @ts-check
/**
 * The floor of a durable restore by name, as a whole node process: only the steps no durable,
 * undoable restore can skip, done the cheapest way node offers, with nothing of Vigil loaded.
 * `npm run bench -- cli` times it beside `git checkout -- FILE…` and `vigil checkpoints restore`
 * on the same files, to show how much of the restore row's ratio node and the disk take before
 * any of Vigil's own work.
 *
 *   node bench/durable-restore-floor.mjs SCRATCH DIR FILE…
 *
 * 1. The undo point: each named file lstat'ed, read and hashed as a git blob; the blobs deflated
 *    into one file, fsynced and renamed into place; a commit-sized object and then a ref written
 *    the same way, the folder fsynced. (No trees, no index, no lock: fewer steps than any real one.)
 * 2. The writes, all at once through node's pool: a temp file beside each target (`wx`), written,
 *    fsynced, closed, the target lstat'ed (the check that it did not change), the temp renamed over
 *    it; then each folder fsynced once.
 * 3. The read-back: each file read and hashed again.
 * The content written is the same for every file (held in memory, not read from a store): a floor.
 */
import { createHash } from 'node:crypto';
import { lstat, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const [scratch, dir, ...files] = process.argv.slice(2);
if (scratch === undefined || dir === undefined || files.length === 0) {
  process.stderr.write('usage: node bench/durable-restore-floor.mjs SCRATCH DIR FILE…\n');
  process.exit(2);
}
const restored = Buffer.from('restored by the floor\n'.repeat(14));

/** @param {Uint8Array} bytes */
function blobId(bytes) {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** Writes `bytes` to `target` through a fsynced temp file renamed over it. @param {string} target @param {Uint8Array} bytes @param {string} flags */
async function writeDurably(target, bytes, flags = 'w') {
  const temp = `${target}.floor-tmp`;
  const handle = await open(temp, flags, 0o644);
  try {
    await handle.write(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await lstat(target).catch(() => undefined);
  await rename(temp, target);
}

/** @param {string} folder */
async function syncFolder(folder) {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const targets = files.map((file) => path.join(dir, file));

// 1. The undo point, durable before the first write.
const current = await Promise.all(
  targets.map(async (target) => {
    await lstat(target);
    const bytes = await readFile(target);
    blobId(bytes);
    return deflateSync(bytes, { level: 1 });
  }),
);
await writeDurably(path.join(scratch, 'undo-pack'), Buffer.concat(current));
await writeDurably(path.join(scratch, 'undo-commit'), Buffer.alloc(240, 'c'));
await writeDurably(path.join(scratch, 'undo-ref'), Buffer.from(`${'0'.repeat(40)}\n`));
await syncFolder(scratch);

// 2. The writes, then each folder once.
await Promise.all(targets.map((target) => writeDurably(target, restored, 'wx')));
await Promise.all([...new Set(targets.map((target) => path.dirname(target)))].map(syncFolder));

// 3. The read-back.
const wanted = blobId(restored);
for (const bytes of await Promise.all(targets.map((target) => readFile(target)))) {
  if (blobId(bytes) !== wanted) throw new Error('a file does not hold what the floor wrote');
}
