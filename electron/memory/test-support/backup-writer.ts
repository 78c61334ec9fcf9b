import { createInterface } from 'node:readline';
import { writeMemoryBackup } from '../memory-backup';

/**
 * A child process that, once a line "go" arrives, writes COUNT backups of FILE with distinct
 * bytes (`writer ID backup N`), all stamped with the same instant NOW, and prints each path.
 * Usage: backup-writer.ts FILE ID COUNT NOW
 */
const [file, id, countText, nowText] = process.argv.slice(2);
if (file === undefined || id === undefined || nowText === undefined)
  throw new Error('usage: backup-writer.ts FILE ID COUNT NOW');
const now = new Date(nowText);
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'go') break;
}
for (let index = 0; index < Number(countText ?? '50'); index += 1) {
  const backup = await writeMemoryBackup(file, Buffer.from(`writer ${id} backup ${index}`), now);
  process.stdout.write(`${backup.path}\n`);
}
