import { silentLogger } from '../../logging';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor } from './restore-service';

/**
 * A restore run as a real child process for restore-kill.test.ts, which SIGKILLs itself midway:
 *   restore-kill.child.ts CHECKPOINTS_ROOT DIR CHECKPOINT "PHASE MIN_DONE" | synced
 * Prints "<phase> <done> <total>" for every progress report, "synced" once the pre-rollback
 * snapshot's objects were made durable (before its ref moves), then "finished". It kills itself
 * inside the callback of the first report of PHASE with done >= MIN_DONE (or of "synced"), so
 * nothing runs past that point.
 */
async function main(): Promise<void> {
  const [root, dir, checkpoint, killAt] = process.argv.slice(2);
  if (root === undefined || dir === undefined || checkpoint === undefined || killAt === undefined)
    throw new Error('usage: CHECKPOINTS_ROOT DIR CHECKPOINT KILL_AT');
  const [killPhase, killFrom = '0'] = killAt.split(' ');
  const reached = (phase: string, done: number): void => {
    if (phase === killPhase && done >= Number(killFrom)) process.kill(process.pid, 'SIGKILL');
  };
  let isSynced = false;
  const engine = new CheckpointService({
    root,
    logger: silentLogger,
    onSynced: () => {
      if (isSynced) return;
      isSynced = true;
      process.stdout.write('synced\n');
      reached('synced', 0);
    },
  });
  const restore = restoreServiceFor(engine, root, silentLogger);
  await restore.restore(dir, checkpoint, [], {
    onProgress: (step) => {
      process.stdout.write(`${step.phase} ${step.done} ${step.total}\n`);
      reached(step.phase, step.done);
    },
  });
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
