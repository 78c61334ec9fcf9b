import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The PWD a POSIX shell started in `cwd` would set (what `/bin/sh` did when it ran before bubblewrap):
 * the inherited PWD when it is absolute and names the folder the shell is in, else the folder's
 * physical path (`getcwd`). So a command started without that shell sees the same `$PWD`.
 */
export async function shellPwd(inherited: string | undefined, cwd: string): Promise<string> {
  const physical = await realpath(cwd);
  if (inherited === undefined || !path.isAbsolute(inherited)) return physical;
  const named = await realpath(inherited).catch(() => undefined);
  return named === physical ? inherited : physical;
}
