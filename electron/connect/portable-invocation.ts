import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { VigilInvocation } from '../../shared/connect/connect-config';

/** The real path of `file`, or undefined when it does not exist. */
function realOf(file: string): Promise<string | undefined> {
  return realpath(file).catch(() => undefined);
}

/** The first `vigil` on PATH, resolved through its symlinks (npm's bin links), or undefined. */
async function vigilOnPath(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const names = process.platform === 'win32' ? ['vigil.cmd', 'vigil.exe'] : ['vigil'];
  for (const folder of (env['PATH'] ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry)))
    for (const name of names) {
      const found = await realOf(path.join(folder, name));
      if (found !== undefined) return found;
    }
  return undefined;
}

/**
 * How a configuration in the project should start `vigil`, so that the file names no path of this
 * machine: `npx vigil` when the project has Vigil installed (node_modules/.bin/vigil), `vigil` when
 * the `vigil` on PATH is this very install; otherwise `absolute` (Node and the CLI by path), and
 * `isPortable` says so.
 */
export async function portableInvocation(
  absolute: VigilInvocation,
  project: string,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly vigil: VigilInvocation; readonly isPortable: boolean }> {
  if ((await realOf(path.join(project, 'node_modules', '.bin', 'vigil'))) !== undefined)
    return { vigil: { command: 'npx', args: ['vigil'] }, isPortable: true };
  const cli = absolute.args.at(-1);
  const onPath = await vigilOnPath(env);
  if (cli !== undefined && onPath !== undefined && onPath === (await realOf(cli)))
    return { vigil: { command: 'vigil', args: [] }, isPortable: true };
  return { vigil: absolute, isPortable: false };
}

/** Whether `home` is the CLI's default data folder (~/.vigil), which `vigil mcp` finds without being told. */
export function isDefaultVigilHome(home: string, env: NodeJS.ProcessEnv): boolean {
  return path.resolve(home) === path.join(env['HOME'] ?? os.homedir(), '.vigil');
}
