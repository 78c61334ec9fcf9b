import { isAppError } from '../../../shared/errors';
import { silentLogger } from '../../logging';
import { CheckpointService } from '../checkpoint-service';

/**
 * One checkpoint for store-write-failure.test.ts, in a child process the test may start with a file size limit
 * (RLIMIT_FSIZE) below a big file's object, so the store's write of it fails (EFBIG):
 *   store-write-failure.child.ts ROOT DIR WORKER_THRESHOLD
 * Batches of WORKER_THRESHOLD files or more are hashed in a worker, smaller ones on the main thread. Prints, as
 * JSON, the outcome's kind or the error's code and message.
 */
async function main(): Promise<void> {
  const [root, dir, threshold] = process.argv.slice(2);
  if (root === undefined || dir === undefined || threshold === undefined)
    throw new Error('usage: ROOT DIR WORKER_THRESHOLD');
  const service = new CheckpointService({
    root,
    logger: silentLogger,
    refusedDirs: [],
    workerThreshold: Number(threshold),
    workers: 1,
  });
  try {
    const outcome = await service.checkpoint(dir, { reason: 'under test' });
    process.stdout.write(`${JSON.stringify({ kind: outcome.kind })}\n`);
  } catch (error) {
    if (!isAppError(error)) throw error;
    process.stdout.write(`${JSON.stringify({ kind: 'failed', code: error.code, message: error.message })}\n`);
  } finally {
    await service.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
