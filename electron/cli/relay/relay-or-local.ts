import { readServeCredential, type CredentialLookup, type ServeCredential } from './serve-credential';

/** Where a line about the choice goes (stderr, with the command's own prefix). */
export type SayLine = (line: string) => void;

/**
 * The resident core a command relays to: the one serve.json names, or none (work in-process). A
 * serve.json that cannot be used costs one line saying why. One rule for the CLI, `vigil hook`
 * and every command that relays.
 */
export async function relayTarget(
  serveInfo: string,
  say: SayLine,
  known?: CredentialLookup,
): Promise<ServeCredential | undefined> {
  const lookup = known ?? (await readServeCredential(serveInfo));
  if (lookup.kind === 'unusable') say(`not relaying to a Vigil core: ${lookup.reason}; working in-process.`);
  return lookup.kind === 'found' ? lookup.credential : undefined;
}
