import { withMemoryLock } from '../memory-lock';

/**
 * A child process that takes the memory lock of the file given as argv[2] (purpose argv[3]),
 * prints "held", and keeps it until its stdin closes (or it is killed).
 */
const [file, purpose] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: hold-memory-lock.ts FILE [PURPOSE]');
await withMemoryLock(
  file,
  async () => {
    process.stdout.write('held\n');
    await new Promise<void>((resolve) => {
      process.stdin.resume();
      process.stdin.on('end', resolve);
      process.stdin.on('close', resolve);
    });
  },
  { purpose },
);
