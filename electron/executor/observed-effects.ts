import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointApi, WriteLedger } from '../checkpoints';
import { isPathInside } from '../lib';
import type { ObservedCall } from './call-records';

/** At most this many files are recorded for one call. */
const maxFiles = 5_000;

/** The files under a folder now (symlinks not followed), up to the limit. */
async function filesNow(folder: string, found: Set<string>): Promise<void> {
  const pending = [folder];
  while (pending.length > 0 && found.size < maxFiles) {
    const current = pending.pop() ?? '';
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const absolute = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(absolute);
      else found.add(absolute);
      if (found.size >= maxFiles) return;
    }
  }
}

/** The files the checkpoint taken before the call held under `target` (a folder it deleted or moved). */
async function filesBefore(
  engine: Pick<CheckpointApi, 'resolve' | 'readTree'>,
  directory: string,
  checkpointId: string,
  target: string,
  found: Set<string>,
): Promise<void> {
  const entry = await engine.resolve(directory, checkpointId).catch(() => undefined);
  if (entry === undefined) return;
  let tree = entry.tree;
  const parts = path
    .relative(directory, target)
    .split(path.sep)
    .filter((part) => part !== '');
  for (const part of parts) {
    const next = (await engine.readTree(tree).catch(() => [])).find((item) => item.name === part);
    if (next === undefined) return;
    if (next.type !== 'tree') {
      found.add(target);
      return;
    }
    tree = next.oid;
  }
  const pending: { readonly oid: string; readonly folder: string }[] = [{ oid: tree, folder: target }];
  while (pending.length > 0 && found.size < maxFiles) {
    const current = pending.pop();
    if (current === undefined) break;
    for (const item of await engine.readTree(current.oid).catch(() => [])) {
      const absolute = path.join(current.folder, item.name);
      if (item.type === 'tree') pending.push({ oid: item.oid, folder: absolute });
      else found.add(absolute);
    }
  }
}

/**
 * The files a call changed, as far as Vigil can tell: a file tool's file; a shell command's named
 * targets — each file, the files now in each folder, and the files its checkpoint held there (so a
 * deleted folder's files are recorded as gone). What a command changes without naming it is not
 * known, and is not claimed.
 */
export async function changedFilesOf(
  call: ObservedCall,
  engine: Pick<CheckpointApi, 'resolve' | 'readTree'>,
): Promise<readonly string[]> {
  if (call.kind === 'file') return call.targets;
  const found = new Set<string>();
  for (const target of call.targets) {
    const stats = await lstat(target).catch(() => undefined);
    if (stats?.isDirectory() === true) await filesNow(target, found);
    else found.add(target);
    const before = call.touched.find(
      (touched) => touched.checkpointId !== undefined && isPathInside(target, touched.directory),
    );
    if (before?.checkpointId !== undefined)
      await filesBefore(engine, before.directory, before.checkpointId, target, found);
    if (found.size >= maxFiles) break;
  }
  return [...found];
}

/** Who made the writes of a call an agent ran itself: its session and turn, the call. */
export interface ObservedWriteActor {
  readonly sessionId: string;
  /** The agent's name, as its session has it. */
  readonly agent: string;
  readonly turn: number;
  /** The agent's own tool name. */
  readonly tool: string;
  readonly callId: string;
}

/**
 * The one place the files an agent's own tool call changed are recorded (the executor's observe
 * stage, after the agent's hooks report the call): in the write ledger (so
 * restore plans do not flag them as changed outside the agents) and in the engine's dirty set (so
 * the next checkpoint re-reads them), as the call's session and turn.
 */
export async function recordObservedWrites(
  ledger: WriteLedger,
  engine: Pick<CheckpointApi, 'noteWritten'>,
  actor: ObservedWriteActor,
  paths: readonly string[],
): Promise<void> {
  if (paths.length === 0) return;
  engine.noteWritten(paths);
  await ledger.record(paths, {
    kind: 'session',
    sessionId: actor.sessionId,
    agent: actor.agent,
    turn: actor.turn,
    tool: actor.tool,
  });
}
