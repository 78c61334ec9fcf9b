import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { repoRoot } from '../../test-support/run-vigil';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'checkpoint.child.ts');

/** What a checkpoint in a child process came to, and which files its store made durable. */
export interface ChildCheckpoint {
  /** The outcome's kind (`created`, ...), or `failed`. */
  readonly kind: string;
  /** A failure's AppError code (none for any other error). */
  readonly code?: string;
  readonly message?: string;
  readonly synced: readonly string[];
}

/**
 * Takes one checkpoint of `dir` into the checkpoints root `root` in a new process (batches of
 * `workerThreshold` files or more hashed in a worker), under a file size limit of `fileSizeLimit`
 * bytes if one is given (RLIMIT_FSIZE, by `prlimit`): a store write above it fails (EFBIG).
 */
export async function checkpointInChild(
  root: string,
  dir: string,
  workerThreshold: number,
  fileSizeLimit?: number,
): Promise<ChildCheckpoint> {
  const node = [process.execPath, '--import', 'tsx', child, root, dir, String(workerThreshold)];
  const limit = fileSizeLimit === undefined ? [] : ['prlimit', `--fsize=${fileSizeLimit}`];
  const [command = '', ...args] = [...limit, ...node];
  const { stdout } = await promisify(execFile)(command, args, { cwd: repoRoot });
  return JSON.parse(stdout) as ChildCheckpoint;
}
