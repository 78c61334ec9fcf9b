import { appendFile, mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../logging';
import {
  decodeTree,
  droppedRefsFolder,
  fileModes,
  hashObject,
  isDurableTemp,
  isLooseObjectName,
  parseLooseObject,
  type StoreLayout,
  typeOfMode,
} from '../../git-store';
import type { ObjectStore, RefStore } from '../../git-store';
import type { Timeline } from '../timeline/timeline';

const inflateAsync = promisify(inflate);

/** What a repair found and fixed. */
export interface RepairReport {
  readonly removedTemps: number;
  readonly quarantined: readonly string[];
  readonly resetRefs: readonly { readonly dirhash: string; readonly from: string; readonly to: string | undefined }[];
}

/** What a repair works on. */
export interface RepairContext {
  readonly layout: StoreLayout;
  readonly store: ObjectStore;
  readonly refs: RefStore;
  readonly timeline: Timeline;
  readonly logger: Logger;
  /** Fails unless the store lock is still this process's (asked before anything is deleted or moved). */
  readonly assertHeld: () => Promise<void>;
}

async function names(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => [] as string[]);
}

/**
 * An objects folder that cannot be read at all (a permission, a file in its place, a device error)
 * says nothing about the heads: it fails the repair, so no ref is moved or removed over it.
 */
async function assertObjectsReadable(objectsDir: string): Promise<void> {
  try {
    await readdir(objectsDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new AppError(
      'io_error',
      `The checkpoint store's objects folder ${objectsDir} cannot be read (${code ?? String(error)}); no timeline was changed: fix its permissions or the disk, then try again.`,
      { path: objectsDir, errno: code },
    );
  }
}

/** Moves a damaged file out of the store (kept for a human to inspect, never silently deleted). */
async function quarantine(layout: StoreLayout, file: string): Promise<string> {
  const folder = path.join(layout.root, 'quarantine');
  await mkdir(folder, { recursive: true });
  const target = path.join(folder, `${Date.now()}-${path.basename(file)}`);
  await rename(file, target);
  return target;
}

/** Whether a tree (and everything below it) is fully present in the store. */
async function isTreeComplete(store: ObjectStore, tree: string, checked: Set<string>): Promise<boolean> {
  if (checked.has(tree)) return true;
  let items;
  try {
    items = decodeTree(await store.readTyped(tree, 'tree'));
  } catch {
    return false;
  }
  for (const item of items) {
    if (item.mode === fileModes.gitlink || checked.has(item.oid)) continue;
    if (typeOfMode(item.mode) === 'tree') {
      if (!(await isTreeComplete(store, item.oid, checked))) return false;
    } else if (!(await store.has(item.oid))) {
      return false;
    }
    checked.add(item.oid);
  }
  checked.add(tree);
  return true;
}

/** Whether a commit and its whole tree can be read. */
async function isCommitComplete(context: RepairContext, id: string, checked: Set<string>): Promise<boolean> {
  try {
    const commit = await context.timeline.commit(id);
    return await isTreeComplete(context.store, commit.tree, checked);
  } catch {
    return false;
  }
}

/** Whether a head can be read: its commit and root tree exist and parse (a torn object after a power cut does not). */
async function isHeadReadable(context: RepairContext, id: string): Promise<boolean> {
  try {
    const commit = await context.timeline.commit(id);
    decodeTree(await context.store.readTyped(commit.tree, 'tree'));
    return true;
  } catch {
    return false;
  }
}

/** Moves every loose object written since `since` (ms) that does not inflate and hash to its name into quarantine. */
async function quarantineDamaged(context: RepairContext, since: number): Promise<string[]> {
  const { layout, store } = context;
  const quarantined: string[] = [];
  for (const fan of await names(store.objectsDir)) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    for (const name of await names(path.join(store.objectsDir, fan))) {
      if (!isLooseObjectName(name)) continue;
      const file = path.join(store.objectsDir, fan, name);
      const info = await stat(file).catch(() => undefined);
      if (info === undefined || info.mtimeMs < since - 2_000) continue;
      const isValid = await readFile(file)
        .then(inflateAsync)
        .then((raw) => {
          const object = parseLooseObject(fan + name, raw);
          return hashObject(object.type, object.content) === fan + name;
        })
        .catch(() => false);
      if (!isValid) {
        await context.assertHeld();
        quarantined.push(await quarantine(layout, file));
      }
    }
  }
  return quarantined;
}

/** Removes temp files (objects, packs, refs, shallow, registry) and unfinished packs; returns how many went. */
async function removeTemps(context: RepairContext): Promise<number> {
  const { layout, store } = context;
  let removedTemps = 0;
  const removeTemp = async (file: string): Promise<void> => {
    await unlink(file).then(
      () => (removedTemps += 1),
      () => undefined,
    );
  };
  // 1. Temp files: objects, packs, refs, shallow, registry (every one of them written under this lock).
  // The fan-out folders are listed side by side (this runs at every start).
  const fans = (await names(store.objectsDir)).filter((fan) => /^[0-9a-f]{2}$/.test(fan));
  const objectTemps = await Promise.all(
    fans.map(async (fan) =>
      (await names(path.join(store.objectsDir, fan)))
        .filter((name) => name.startsWith('tmp_obj_'))
        .map((name) => path.join(store.objectsDir, fan, name)),
    ),
  );
  for (const file of objectTemps.flat()) await removeTemp(file);
  for (const name of await names(store.packDir))
    if (name.startsWith('tmp_')) await removeTemp(path.join(store.packDir, name));
  const droppedRoot = path.join(layout.gitdir, droppedRefsFolder);
  const droppedFolders = (await names(droppedRoot)).map((hash) => path.join(droppedRoot, hash));
  for (const folder of [
    layout.gitdir,
    path.join(layout.gitdir, 'refs/vigil'),
    path.join(layout.gitdir, 'logs/refs/vigil'),
    layout.registryDir,
    ...droppedFolders,
  ]) {
    for (const name of await names(folder)) if (isDurableTemp(name)) await removeTemp(path.join(folder, name));
  }
  // 2. Packs without their index (or the reverse) are unfinished; an index that does not match its pack is damaged.
  const packNames = await names(store.packDir);
  for (const name of packNames) {
    const match = /^(pack-[0-9a-f]{40})\.(pack|idx)$/.exec(name);
    if (match === null) continue;
    const other = `${match[1]}.${match[2] === 'pack' ? 'idx' : 'pack'}`;
    if (!packNames.includes(other)) await removeTemp(path.join(store.packDir, name));
  }
  return removedTemps;
}

/** Since when loose objects must be verified: the dead writer's start, else 0 when a head does not parse, else never. */
async function verifySinceOf(context: RepairContext, since: number | undefined): Promise<number | undefined> {
  if (since !== undefined) return since;
  for (const head of (await context.refs.list()).values()) {
    if (!(await isHeadReadable(context, head))) return 0;
  }
  return undefined;
}

/** The newest complete checkpoint along the parents of the head, else along the reflog (when the head commit itself is gone). */
async function newestComplete(
  context: RepairContext,
  dirhash: string,
  head: string,
  shallow: ReadonlySet<string>,
  isComplete: (id: string) => Promise<boolean>,
): Promise<string | undefined> {
  const history = (await context.refs.log.read(dirhash))
    .reverse()
    .flatMap((entry) => [entry.next, ...(entry.old === undefined ? [] : [entry.old])]);
  let found: string | undefined;
  for (const start of new Set([head, ...history])) {
    let candidate: string | undefined = start;
    for (let step = 0; candidate !== undefined && step < 50 && found === undefined; step += 1) {
      if (await isComplete(candidate)) found = candidate;
      else
        candidate = shallow.has(candidate)
          ? undefined
          : await context.timeline.commit(candidate).then(
              (commit) => commit.parents[0],
              () => undefined,
            );
    }
    if (found !== undefined) break;
  }
  return found;
}

/** Moves every ref whose head is incomplete back to its newest complete checkpoint (or removes it), logging each change. */
async function resetIncompleteRefs(
  context: RepairContext,
  isComplete: (id: string) => Promise<boolean>,
): Promise<RepairReport['resetRefs']> {
  const { layout, refs, logger } = context;
  const resetRefs: Array<{ dirhash: string; from: string; to: string | undefined }> = [];
  const shallow = await refs.readShallow();
  for (const [dirhash, head] of await refs.list()) {
    if (await isComplete(head)) continue;
    const found = await newestComplete(context, dirhash, head, shallow, isComplete);
    await context.assertHeld();
    if (found === undefined) await refs.remove(dirhash);
    else await refs.update(dirhash, found, head, 'repair: the newest checkpoint was incomplete');
    resetRefs.push({ dirhash, from: head, to: found });
    const line = `${new Date().toISOString()} refs/vigil/${dirhash}: ${head} was incomplete; ${found === undefined ? 'ref removed' : `moved back to ${found}`}\n`;
    await appendFile(layout.repairLog, line).catch(() => undefined);
    logger.error('checkpoint store repaired a timeline', { dirhash, from: head, to: found });
  }
  // A batch of the dropped area whose newest checkpoint is damaged cannot be restored: its ref goes, said so.
  for (const ref of await refs.listDropped()) {
    if (await isComplete(ref.head)) continue;
    await context.assertHeld();
    await refs.removeDropped(ref.dirhash, ref.name);
    const line = `${new Date().toISOString()} refs/vigil-dropped/${ref.dirhash}/${ref.name}: ${ref.head} was incomplete; ref removed\n`;
    await appendFile(layout.repairLog, line).catch(() => undefined);
    logger.error('checkpoint store removed a damaged batch of dropped checkpoints', { ...ref });
  }
  return resetRefs;
}

/** Drops reflog entries and cut points that name objects that are gone (git fsck reports them). */
async function dropDanglingNames(context: RepairContext, isComplete: (id: string) => Promise<boolean>): Promise<void> {
  const { store, refs } = context;
  await context.assertHeld();
  // A reflog entry naming a commit whose tree is damaged would send git fsck to the missing objects.
  for (const dirhash of (await refs.list()).keys()) await refs.log.retain(dirhash, isComplete);
  const cuts = await refs.readShallow();
  const present = new Set<string>();
  for (const cut of cuts) if (await store.has(cut)) present.add(cut);
  if (present.size !== cuts.size) await refs.writeShallow(present);
}

/**
 * Brings the store back to a valid state after a writer died (the store lock must be held; it is
 * asserted again before anything is deleted or moved): removes temp files and half-made packs;
 * checks that every head's commit and root tree exist and parse; with `since` (when the dead writer
 * took the lock), or when a head is damaged (a torn object after a power cut: every loose object
 * is then checked), verifies loose objects (quarantining damaged ones) and whole commits, moving a
 * ref back to its newest complete checkpoint, or deleting it when none is. Every ref change is
 * written to `checkpoints/repairs.log`.
 */
export async function repairStore(context: RepairContext, since?: number): Promise<RepairReport> {
  const { store, logger } = context;
  await context.assertHeld();
  const removedTemps = await removeTemps(context);
  await store.refresh(true);
  const report = (quarantined: readonly string[], resetRefs: RepairReport['resetRefs']): RepairReport => {
    if (removedTemps > 0 || quarantined.length > 0)
      logger.warn('checkpoint store cleaned up after an interrupted writer', { removedTemps, quarantined });
    return { removedTemps, quarantined, resetRefs };
  };
  // 3. Loose objects written by the dead writer, or all of them when a head does not even parse: each must inflate and hash to its name.
  const verifySince = await verifySinceOf(context, since);
  // No dead writer and every head reads: nothing more to check (this runs at every start).
  if (verifySince === undefined) return report([], []);
  await assertObjectsReadable(store.objectsDir);
  const quarantined = await quarantineDamaged(context, verifySince);
  // 4. Every ref must point at a complete checkpoint; after a crash, go back to the newest one that is.
  const checked = new Set<string>();
  const isComplete = (id: string): Promise<boolean> => isCommitComplete(context, id, checked);
  const resetRefs = await resetIncompleteRefs(context, isComplete);
  // 5. Reflog entries and cut points must not name objects that are gone.
  await dropDanglingNames(context, isComplete);
  return report(quarantined, resetRefs);
}
