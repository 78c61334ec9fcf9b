import type { CheckpointSource } from '../../checkpoints';
import { stringOption, UsageError, type CliArgs, type CliIo } from '../cli-command';
import { timelinesOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore, type ContractCaller } from '../relay/relay-or-local';

/** The merged timeline as a command reads it. */
export type CliTimelines = ReturnType<typeof timelinesOf>;

/**
 * Runs `task` with the timeline every `vigil checkpoints` command reads: Vigil's checkpoints with
 * Hermes Agent's merged in (found through `HERMES_HOME`, else `~/.hermes`, read-only), from the
 * resident core when one runs, else from a one-shot core in this process.
 */
export async function withMergedCheckpoints<T>(
  io: CliIo,
  task: (checkpoints: CliTimelines, caller: ContractCaller) => Promise<T>,
): Promise<T> {
  return withCore(cliRoute(io), (caller) => task(timelinesOf(caller), caller));
}

/** `--source vigil|hermes`, or undefined for both. */
export function sourceOption(args: CliArgs): CheckpointSource | undefined {
  const value = stringOption(args, 'source');
  if (value === undefined || value === 'vigil' || value === 'hermes') return value;
  throw new UsageError(`--source takes vigil or hermes, not "${value}"`);
}
