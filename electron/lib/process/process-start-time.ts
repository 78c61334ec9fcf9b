import { readFile } from 'node:fs/promises';

/**
 * What /proc says about a process: when it started (boot id + clock ticks since boot), whether it
 * has exited (a zombie), and whether it is stopped by a signal (Ctrl+Z, SIGSTOP: state T).
 */
export interface ProcessStart {
  readonly startedAt: string;
  readonly hasExited: boolean;
  readonly isStopped: boolean;
}

let bootId: Promise<string | undefined> | undefined;

/** The kernel's boot id, so a start time from before a reboot never matches one after it. */
function currentBootId(): Promise<string | undefined> {
  bootId ??= readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  return bootId;
}

/** The fields of `/proc/<pid>/stat` after the command name (state first), or undefined (not Linux, no such process). */
async function statFields(pid: number): Promise<string[] | undefined> {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined ? undefined : fieldsOf(stat);
}

/** The fields of a `/proc/<pid>/stat` text after the command name (state first). */
function fieldsOf(stat: string): string[] {
  // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Whether a process has exited (a zombie) or is stopped, from the text of its `/proc/<pid>/stat`; undefined when it holds no state. */
export function processStateOfStat(stat: string): Pick<ProcessStart, 'hasExited' | 'isStopped'> | undefined {
  const state = fieldsOf(stat)[0];
  if (state === undefined || state === '') return undefined;
  return { hasExited: state === 'Z' || state === 'X', isStopped: state === 'T' };
}

/**
 * Whether process `pid` has exited (a zombie) or is stopped, from `/proc/<pid>/stat` alone (Linux
 * only; undefined elsewhere or when it is gone): what a liveness check needs, without the boot id
 * that a start time needs (one file read less on every relayed command and hook call).
 */
export async function processState(pid: number): Promise<Pick<ProcessStart, 'hasExited' | 'isStopped'> | undefined> {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined ? undefined : processStateOfStat(stat);
}

/**
 * When process `pid` started, from `/proc/<pid>/stat` (Linux only; undefined elsewhere or when
 * the process is gone). A pid that now names another process has another start time, which is
 * how a lock holder's pid being reused is told apart from the holder still running.
 */
export async function processStart(pid: number): Promise<ProcessStart | undefined> {
  const [fields, boot] = await Promise.all([statFields(pid), currentBootId()]);
  if (fields === undefined || boot === undefined) return undefined;
  const state = fields[0];
  const ticks = fields[19];
  if (state === undefined || ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
  return { startedAt: `${boot}:${ticks}`, hasExited: state === 'Z' || state === 'X', isStopped: state === 'T' };
}

let ownStart: Promise<string | undefined> | undefined;

/** This process's start time (see `processStart`), read once. */
export function ownStartTime(): Promise<string | undefined> {
  ownStart ??= processStart(process.pid).then((found) => found?.startedAt);
  return ownStart;
}
