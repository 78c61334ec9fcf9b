import { runCliWithEntries } from './cli-process';
import { checkpointCommand } from './commands/checkpoint-command';
import { exitOnceIdle } from './exit-once-idle';
import type { CredentialLookup } from './relay/serve-credential';

/**
 * `vigil checkpoint …` relayed, as the relay entry runs it (cli/relay-entry.ts): the command as
 * vigil.ts runs it, on the entries its command index gives `checkpoint` (the one command).
 */
export async function runRelayedCheckpoint(argv: readonly string[], serveLookup: CredentialLookup): Promise<void> {
  process.exitCode = await runCliWithEntries(argv, [checkpointCommand], { serveLookup });
  // As vigil.ts does after a checkpoint: exit once idle, skipping the heap's teardown.
  exitOnceIdle();
}
