import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { exitOnceIdle } from './exit-once-idle';

/**
 * For exit-once-idle.test.ts, run as a real child process: `FILE` is written 1 MB long after a
 * pause (work still under way when the code is set), and `FILE.later` only if the process goes on
 * past the first moment it has nothing to do.
 */
const [file = ''] = process.argv.slice(2);
process.exitCode = 3;
exitOnceIdle();
process.once('beforeExit', () => {
  void writeFile(`${file}.later`, 'went on past its first idle moment\n');
});
process.on('exit', (code) => process.stdout.write(`exit ${code}\n`));
void sleep(50).then(() => writeFile(file, 'x'.repeat(1_000_000)));
