import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../../logging/logger';
import { CheckpointService } from '../checkpoint-service';
import { restoreServiceFor } from '../restore/restore-service';
import { crashStates, type CrashOperation } from './crash-states';

/**
 * One store operation run in a loop as a real child process, for the SIGKILL harness (crash-kill.ts)
 * and the power-cut checker (power-cut.ts):
 *   crash-ops.child.ts OPERATION ROOT DIR [ROUNDS] [BASE_CHECKPOINT] [prepared]
 * It prints "ready" once the store is open, then a line after each step the caller may count on:
 * "ack ID" once a checkpoint call returned (checkpoint, prune, cut), "b ID TREE" once the "B"
 * state is checkpointed and "restoring" right before a restore to BASE_CHECKPOINT (the "A" state),
 * "restored ID" (the pre-rollback snapshot) once it returned, "laying" before it changes the project again, "pruned" after a prune, and "round MS" as each
 * round starts, MS on the child's own clock (the harness times rounds by it, to size its kill window). It runs
 * until killed, or ROUNDS rounds (then prints "finished"). With "prepared", the first restore round
 * finds the B state already laid down and checkpointed (the power-cut checker traces the restore alone).
 */
const [operationArgument, root, dir, roundsArgument, base, preparedArgument] = process.argv.slice(2);
if (operationArgument === undefined || root === undefined || dir === undefined)
  throw new Error('usage: crash-ops.child.ts OPERATION ROOT DIR [ROUNDS] [BASE_CHECKPOINT]');
const operation = operationArgument as CrashOperation;
const rounds = roundsArgument === undefined || roundsArgument === '' ? Infinity : Number(roundsArgument);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const service = new CheckpointService({
  root,
  logger: silentLogger,
  retention: { maxSnapshots: crashStates[operation].keep },
  // No worker threads: a kill then lands in the one process that writes.
  workerThreshold: 1_000_000,
});

/**
 * What makes this child's edits its own: rounds count from 0 in every child, and without it a
 * child's first rounds would write what the last one wrote, so its checkpoints would find nothing new.
 */
const runToken = `${process.pid}.${Date.now()}`;

/** Rewrites a few files of the project (which ones turn with the round). */
async function edit(round: number): Promise<void> {
  await Promise.all(
    Array.from({ length: 5 }, async (_, index) => {
      const file = path.join(dir as string, `d${index % 4}`, `f${(round * 7 + index * 3) % 40}.txt`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `run ${runToken} round ${round} edit ${index}\n`.repeat(1 + (round % 7)));
    }),
  );
}

/** Takes a checkpoint and acknowledges it when one was made. */
async function checkpoint(round: number): Promise<void> {
  const outcome = await service.checkpoint(dir as string, {
    reason: 'before write_file',
    attribution: { turn: round },
  });
  if (outcome.kind === 'created') say(`ack ${outcome.checkpoint.id}`);
}

/** Lays down the "B" state (the A state edited, thinned and grown), exactly. */
async function layDownB(): Promise<void> {
  const { a, b } = crashStates.restore.files();
  for (const name of Object.keys(a))
    if (b[name] === undefined) await rm(path.join(dir as string, name), { force: true });
  for (const [name, content] of Object.entries(b)) {
    await mkdir(path.dirname(path.join(dir as string, name)), { recursive: true });
    await writeFile(path.join(dir as string, name), content);
  }
}

async function restoreRound(index: number): Promise<void> {
  if (base === undefined) throw new Error('the restore needs BASE_CHECKPOINT');
  const isPrepared = index === 0 && preparedArgument === 'prepared';
  if (!isPrepared) {
    say('laying');
    await layDownB();
    await service.checkpoint(dir as string, { reason: 'before write_file' });
  }
  const head = (await service.list(dir as string, { limit: 1 }))[0];
  if (head === undefined) throw new Error('no head after the B checkpoint');
  say(`b ${head.id} ${head.tree}`);
  say('restoring');
  const result = await restoreServiceFor(service, root as string, silentLogger).restore(dir as string, base);
  say(`restored ${result.preRollback.id}`);
}

async function round(index: number): Promise<void> {
  switch (operation) {
    case 'checkpoint':
      await edit(index);
      return checkpoint(index);
    case 'prune':
      await edit(index);
      await checkpoint(index);
      await service.prune();
      say('pruned');
      return;
    case 'cut':
      // Retention lowered from 20 to 2: the cut after a checkpoint, then a prune's cut and collection.
      service.updateSettings({ retention: { maxSnapshots: 20, maxTotalBytes: 1 << 30 }, maxFileBytes: 1 << 24 });
      for (let step = 0; step < 4; step += 1) {
        await edit(index * 4 + step);
        await checkpoint(index);
      }
      service.updateSettings({ retention: { maxSnapshots: 2, maxTotalBytes: 1 << 30 }, maxFileBytes: 1 << 24 });
      await edit(index * 4 + 4);
      await checkpoint(index);
      await service.prune();
      say('pruned');
      return;
    case 'restore':
      return restoreRound(index);
  }
}

await service.list(dir);
say('ready');
const parent = process.ppid;
for (let index = 0; index < rounds; index += 1) {
  // An orphan (the harness died) stops instead of looping forever.
  if (process.ppid !== parent) process.exit(3);
  say(`round ${Math.round(performance.now())}`);
  await round(index);
}
await service.dispose();
say('finished');
