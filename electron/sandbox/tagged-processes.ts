import { readdir, readFile } from 'node:fs/promises';

/** The environment variable that marks every process of one spawn server's commands. */
export const spawnTagVariable = 'SPAWN_SERVER_TAG';

/** A process's group, from `/proc/PID/stat` (the field after state and parent), or undefined. */
async function processGroup(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const group = Number(fields[2]);
  return Number.isInteger(group) && group > 1 ? group : undefined;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already, or not ours.
  }
}

/**
 * SIGKILLs every process whose environment carries `SPAWN_SERVER_TAG=TAG…` (TAG as a prefix), and
 * its process group: the commands a spawn server started, found even when the server died before
 * it could say which processes they were. Linux only (through /proc); elsewhere it finds nothing.
 * Resolves with how many processes it found.
 */
export async function killTagged(tag: string): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const marker = Buffer.from(`${spawnTagVariable}=${tag}`);
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/u.test(name)).map(Number);
  let found = 0;
  for (const pid of pids) {
    if (pid === process.pid) continue;
    const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
    if (environ === undefined || !environ.subarray(0, 1 << 20).includes(marker)) continue;
    found += 1;
    const group = await processGroup(pid);
    if (group !== undefined && group !== process.pid) kill(-group);
    kill(pid);
  }
  return found;
}
