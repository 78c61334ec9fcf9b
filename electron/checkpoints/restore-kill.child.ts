import { silentLogger } from '../logging/logger';
import { CheckpointService } from './checkpoint-service';
import { restoreServiceFor } from './restore-service';

/**
 * A restore run as a real child process for restore-kill.test.ts, which SIGKILLs it midway:
 *   restore-kill.child.ts CHECKPOINTS_ROOT DIR CHECKPOINT
 * Prints "<phase> <done> <total>" for every progress report, "synced" once the pre-rollback
 * snapshot's objects were made durable (before its ref moves), then "finished".
 */
async function main(): Promise<void> {
  const [root, dir, checkpoint] = process.argv.slice(2);
  if (root === undefined || dir === undefined || checkpoint === undefined) throw new Error('usage: CHECKPOINTS_ROOT DIR CHECKPOINT');
  let isSynced = false;
  const engine = new CheckpointService({
    root,
    logger: silentLogger,
    onSynced: () => {
      if (!isSynced) process.stdout.write('synced\n');
      isSynced = true;
    },
  });
  const restore = restoreServiceFor(engine, root, silentLogger);
  await restore.restore(dir, checkpoint, [], { onProgress: (step) => process.stdout.write(`${step.phase} ${step.done} ${step.total}\n`) });
  await engine.dispose();
  process.stdout.write('finished\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
