import { createHash } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findOnPath, startFailure, type SandboxStatus } from './sandbox-availability';

/**
 * A sandbox that started a test command here is trusted to start again while nothing it depends
 * on has changed: the boot, the bubblewrap binary, the user-namespace settings, the user. A
 * one-shot `vigil` process then skips the probe (a whole sandboxed `true`, about 100 ms). The
 * record only ever says "ready": a forged or stale one cannot widen the sandbox, because a
 * sandbox that cannot start runs nothing, and that failure removes the record.
 */
const recordName = 'sandbox-ready.json';

/** The file under VIGIL_HOME where the last successful probe is recorded. */
export function readyRecordPath(vigilHome: string): string {
  return path.join(vigilHome, recordName);
}

async function firstLine(file: string): Promise<string> {
  return (await readFile(file, 'utf8').catch(() => '')).trim();
}

/** Boot identity: Linux's boot id, elsewhere the boot time to the minute. */
async function bootIdentity(): Promise<string> {
  const id = await firstLine('/proc/sys/kernel/random/boot_id');
  if (id !== '') return id;
  return String(Math.round((Date.now() - os.uptime() * 1000) / 60_000));
}

async function fileIdentity(file: string | undefined): Promise<string> {
  if (file === undefined) return 'none';
  const info = await stat(file).catch(() => undefined);
  return info === undefined
    ? `${file}:missing`
    : `${file}:${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
}

/** What a successful probe depended on, as one hash: it must match for the record to hold. */
async function readyKey(bwrapPath: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const bwrap = bwrapPath ?? (await findOnPath('bwrap', env));
  const parts = [
    process.platform,
    String(process.getuid?.() ?? ''),
    await bootIdentity(),
    await fileIdentity(bwrap),
    await firstLine('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
    await firstLine('/proc/sys/kernel/unprivileged_userns_clone'),
    await firstLine('/proc/sys/user/max_user_namespaces'),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** Whether a probe with this key succeeded here before. */
async function hasReadyRecord(vigilHome: string, key: string): Promise<boolean> {
  const text = await readFile(readyRecordPath(vigilHome), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  try {
    return (JSON.parse(text) as { key?: unknown }).key === key;
  } catch {
    return false;
  }
}

/** Records a successful probe (best effort: a record that cannot be written means the next process probes). */
async function writeReadyRecord(vigilHome: string, key: string): Promise<void> {
  const file = readyRecordPath(vigilHome);
  const temp = `${file}.${String(process.pid)}.tmp`;
  const body = `${JSON.stringify({ key, checkedAt: new Date().toISOString() })}\n`;
  await writeFile(temp, body, { mode: 0o600 })
    .then(() => rename(temp, file))
    .catch(() => rm(temp, { force: true }));
}

/** Forgets the record, after a sandboxed command whose sandbox did not start. */
export async function removeReadyRecord(vigilHome: string): Promise<void> {
  await rm(readyRecordPath(vigilHome), { force: true });
}

/** Whether a sandboxed command's output says that the sandbox itself (bubblewrap, Seatbelt's sandbox-exec) failed to start it. */
export function isSandboxStartFailure(result: { readonly exit_code: number | null; readonly stderr: string }): boolean {
  return result.exit_code !== 0 && /^(?:bwrap|sandbox-exec): /mu.test(result.stderr);
}

/** The outcome of a probe command: its exit code and what it printed. */
interface ProbeResult {
  readonly exit_code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Whether the sandbox starts here: "ready" at once when a probe with the same key succeeded
 * before; otherwise `probe` runs a sandboxed `true`, and a success is recorded.
 */
export async function recordedProbe(
  platform: NodeJS.Platform,
  vigilHome: string,
  bwrapPath: string | undefined,
  env: NodeJS.ProcessEnv,
  probe: () => Promise<ProbeResult>,
): Promise<SandboxStatus> {
  const ready: SandboxStatus = { kind: 'ready', engine: platform === 'darwin' ? 'seatbelt' : 'bubblewrap' };
  const key = await readyKey(bwrapPath, env);
  if (await hasReadyRecord(vigilHome, key)) return ready;
  try {
    const result = await probe();
    if (result.exit_code !== 0) return await startFailure(platform, `${result.stdout}${result.stderr}`);
  } catch (error) {
    return startFailure(platform, error instanceof Error ? error.message : String(error));
  }
  await writeReadyRecord(vigilHome, key);
  return ready;
}
