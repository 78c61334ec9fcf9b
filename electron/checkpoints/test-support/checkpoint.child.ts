import { isAppError } from '../../../shared/errors';
import { silentLogger } from '../../logging';
import { CheckpointService } from '../checkpoint-service';

/**
 * One checkpoint in a child process, which `checkpointInChild` may start under a file size limit
 * (RLIMIT_FSIZE) so that the store's writes fail part way (EFBIG):
 *   checkpoint.child.ts ROOT DIR WORKER_THRESHOLD
 * Batches of WORKER_THRESHOLD files or more are hashed in a worker, smaller ones on the main thread.
 * Prints, as JSON, the outcome's kind (or `failed`, with the error's code when it is an AppError, and
 * its message) and every file the store made durable.
 */
async function main(): Promise<void> {
  const [root, dir, threshold] = process.argv.slice(2);
  if (root === undefined || dir === undefined || threshold === undefined)
    throw new Error('usage: ROOT DIR WORKER_THRESHOLD');
  const synced: string[] = [];
  const service = new CheckpointService({
    root,
    logger: silentLogger,
    refusedDirs: [],
    workerThreshold: Number(threshold),
    workers: 1,
    onSynced: (files) => void synced.push(...files),
  });
  let outcome: { readonly kind: string; readonly code?: string; readonly message?: string };
  try {
    outcome = { kind: (await service.checkpoint(dir, { reason: 'under test' })).kind };
  } catch (error) {
    outcome = isAppError(error)
      ? { kind: 'failed', code: error.code, message: error.message }
      : { kind: 'failed', message: String(error) };
  } finally {
    await service.dispose();
  }
  process.stdout.write(`${JSON.stringify({ ...outcome, synced })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
