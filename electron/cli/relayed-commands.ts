import { runCliWithEntries } from './cli-process';
import { checkpointCommand } from './commands/checkpoint-command';
import { exitOnceIdle } from './exit-once-idle';
import type { CredentialLookup } from './relay/serve-credential';

/**
 * The commands the relay entry (cli/relay-entry.ts) runs itself when a core takes their calls, each
 * as vigil.ts runs it: on the entries its command index gives it (the one command, or a group
 * holding just the one subcommand), so usage, output and exit codes are the same. One chunk: the
 * command machinery and the checkpoint command; the restore command's own modules load only for it.
 */

/** `vigil checkpoint …` relayed. */
export async function runRelayedCheckpoint(argv: readonly string[], serveLookup: CredentialLookup): Promise<void> {
  process.exitCode = await runCliWithEntries(argv, [checkpointCommand], { serveLookup });
  // As vigil.ts does after a checkpoint: exit once idle, skipping the heap's teardown.
  exitOnceIdle();
}

/** `vigil checkpoints restore …` relayed. */
export async function runRelayedRestore(argv: readonly string[], serveLookup: CredentialLookup): Promise<void> {
  const { checkpointsRestoreCommand } = await import('./commands/checkpoints-restore-command');
  const group = { name: 'checkpoints', summary: '', subcommands: [checkpointsRestoreCommand] };
  process.exitCode = await runCliWithEntries(argv, [group], { serveLookup });
}
