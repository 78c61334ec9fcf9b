import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashObject } from '../../git-store';
import { isAppError } from '../../../shared/errors';
import { silentLogger } from '../../logging';
import { CheckpointService } from '../checkpoint-service';

/**
 * Two checkpoints for worker-fan-durable.test.ts, in a child process the test starts with a file size limit
 * (RLIMIT_FSIZE) smaller than the big file z1.data in DIR, so a hashing worker's loose write of it fails (EFBIG)
 * after it made its fan-out folder FAN:
 *   worker-fan-durable.child.ts ROOT DIR FAN
 * Every other fan-out folder exists before the first checkpoint. The first checkpoint hashes DIR in a worker
 * (z1.data failing, which fails the checkpoint; a.txt, in another folder, stored before it or never hashed, as the
 * folder lists them); the second stores a small file
 * whose object goes into FAN. Prints, as JSON, each checkpoint's outcome and the paths it made durable.
 */
async function main(): Promise<void> {
  const [root, dir, fan] = process.argv.slice(2);
  if (root === undefined || dir === undefined || fan === undefined) throw new Error('usage: ROOT DIR FAN');
  const objectsDir = path.join(root, 'store', 'objects');
  for (let byte = 0; byte < 256; byte += 1) {
    const other = byte.toString(16).padStart(2, '0');
    if (other !== fan) await mkdir(path.join(objectsDir, other), { recursive: true });
  }
  let synced: string[] = [];
  const service = new CheckpointService({
    root,
    logger: silentLogger,
    refusedDirs: [],
    workerThreshold: 2,
    workers: 1,
    onSynced: (files) => void synced.push(...files),
  });
  const steps: { kind: string; synced: string[] }[] = [];
  const step = async (reason: string): Promise<void> => {
    synced = [];
    // A store that cannot take the big file fails the checkpoint (nothing is left out quietly).
    let kind: string;
    try {
      kind = (await service.checkpoint(dir, { reason })).kind;
    } catch (error) {
      if (!isAppError(error)) throw error;
      kind = `failed: ${error.code}`;
    }
    steps.push({ kind, synced });
  };
  await step('with the big file');
  const isMade = (await readdir(objectsDir)).includes(fan);
  // What the failed writes left in the folder they made.
  const leftInFan = isMade ? await readdir(path.join(objectsDir, fan)) : [];
  // A small version of z1.data whose object goes into the folder the failed write made.
  let small = '';
  for (let index = 0; hashObject('blob', Buffer.from(small)).slice(0, 2) !== fan; index += 1)
    small = `small ${index}\n`;
  await writeFile(path.join(dir, 'z1.data'), small);
  await step('small again');
  await service.dispose();
  const smallObject = path.join(objectsDir, fan, hashObject('blob', Buffer.from(small)).slice(2));
  process.stdout.write(`${JSON.stringify({ objectsDir, isMade, leftInFan, smallObject, steps })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
