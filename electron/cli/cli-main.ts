import type { CheckpointStart } from './checkpoint-process';
import { runCliWithEntries } from './cli-process';
import { entriesFor } from './command-index';

/**
 * Every command but `vigil hook`: the command table, then the one command's module, run with this
 * process's streams. A checkpoint's walk head start makes the command work in-process (it holds the store lock).
 */
export async function runCliProcess(argv: readonly string[], start: CheckpointStart = {}): Promise<number> {
  return runCliWithEntries(argv, await entriesFor(argv), start);
}
