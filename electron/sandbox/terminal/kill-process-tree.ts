import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Stops a command and every process it started. On POSIX the command was spawned as the leader
 * of its own process group, so signalling the group reaches its children and grandchildren; on
 * Windows `taskkill /T /F` walks the tree.
 */
export function killProcessTree(child: ChildProcess, platform: NodeJS.Platform = process.platform): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (platform === 'win32') {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => child.kill('SIGKILL'));
    return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone; make sure the leader is too.
    child.kill('SIGKILL');
  }
}
