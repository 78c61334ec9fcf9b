import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { silentLogger } from '../logging';
import { CheckpointService } from './checkpoint-service';

/**
 * A busy store writer for checkpoint-kill.test.ts, run as a real child process and killed with
 * SIGKILL at a random moment: it rewrites many files, checkpoints (packs and loose objects,
 * worker threads), cuts timelines and collects garbage, in a loop, printing a line after each step.
 *   node checkpoint-kill.child.ts ROOT DIR
 */
async function main(): Promise<void> {
  const [root, dir] = process.argv.slice(2);
  if (root === undefined || dir === undefined) throw new Error('usage: ROOT DIR');
  const service = new CheckpointService({
    root,
    logger: silentLogger,
    refusedDirs: [],
    retention: { maxSnapshots: 4 },
    workerThreshold: 400,
    workers: 1,
  });
  for (let round = 0; ; round += 1) {
    const count = round % 4 === 0 ? 600 : 80;
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        writeFile(
          path.join(dir, `d${index % 12}`, `f${(index * 7 + round) % 600}.txt`),
          `round ${round} file ${index}\n`.repeat(1 + (index % 5)),
        ),
      ),
    );
    await service.checkpoint(dir, { reason: 'before write_file', attribution: { turn: round } });
    process.stdout.write(`checkpoint ${round}\n`);
    if (round % 3 === 2) {
      await service.prune();
      process.stdout.write(`prune ${round}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
