import { silentLogger } from '../../logging';
import { CheckpointService } from '../checkpoint-service';

/**
 * One checkpoint for retry-durable.test.ts, in a child process the test may start with a file size
 * limit (RLIMIT_FSIZE):
 *   retry-durable.child.ts ROOT DIR WORKER_THRESHOLD
 * Prints, as JSON, the outcome's kind (or the error's code) and every file the store made durable.
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
  let kind: string;
  try {
    kind = (await service.checkpoint(dir, { reason: 'under test' })).kind;
  } catch (error) {
    kind = `failed: ${(error as { code?: string }).code ?? String(error)}`;
  } finally {
    await service.dispose();
  }
  process.stdout.write(`${JSON.stringify({ kind, synced })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
