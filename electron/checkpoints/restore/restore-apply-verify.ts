import { fileIdentityOf, isSameIdentity, mapLimit } from '../../files';
import { absoluteIn, hasRealFolders, readDiskVersion, type DiskVersion, type KnownHashes } from '../compare';
import type { RestorePlan } from './restore-plan';
import { progressStep, writeConcurrency, type ApplyInput, type RestoreOutcome } from './restore-apply-types';

/** Reads every done path back against the checkpoint; a mismatch turns its outcome into `failed`. */
export async function verifyReadBack(
  input: ApplyInput,
  outcomes: Map<string, RestoreOutcome>,
): Promise<{ readonly isVerified: boolean; readonly readBack: Map<string, DiskVersion> }> {
  const { plan } = input;
  let isVerified = true;
  const readBack = new Map<string, DiskVersion>();
  const byPath = new Map(plan.entries.map((entry) => [entry.path, entry]));
  const verified = [...outcomes.values()].filter((outcome) => outcome.result === 'done');
  let checked = 0;
  await mapLimit(verified, writeConcurrency, async (outcome) => {
    const entry = byPath.get(outcome.path);
    // A path below a symlink (or a file) is no file of the folder: looking through it would read another
    // folder's file, and a deleted file would seem to be there still when the link points where one is.
    const found: DiskVersion = (await hasRealFolders(plan.dir, outcome.path))
      ? await readDiskVersion(absoluteIn(plan.dir, outcome.path), undefined, { within: plan.dir })
      : { file: undefined, identity: undefined };
    readBack.set(outcome.path, found);
    const wanted = entry?.action === 'delete' ? undefined : entry?.checkpoint;
    const matches =
      wanted === undefined
        ? found.file === undefined
        : found.file?.oid === wanted.oid && found.file.mode === wanted.mode;
    if (!matches) {
      isVerified = false;
      outcomes.set(outcome.path, {
        ...outcome,
        result: 'failed',
        message: `${outcome.path} does not hold the checkpoint's version after the restore (another program changed it?). Restore it again.`,
      });
    }
    checked += 1;
    if (checked % progressStep === 0 || checked === verified.length)
      input.onProgress?.({ phase: 'verify', done: checked, total: verified.length });
  });
  return { isVerified, readBack };
}

/** Every plan entry's outcome in plan order; entries nothing happened to are `skipped` with the plan's reason. */
export function orderedOutcomes(plan: RestorePlan, outcomes: Map<string, RestoreOutcome>): RestoreOutcome[] {
  return plan.entries.map(
    (entry): RestoreOutcome =>
      outcomes.get(entry.path) ?? {
        path: entry.path,
        action: entry.action,
        result: 'skipped',
        ...(entry.reason !== undefined && { reason: entry.reason }),
        ...(entry.note !== undefined && { message: entry.note }),
      },
  );
}

/** Known hashes from the read-back: a file whose stat is still the one read back holds what was verified. */
export function readBackHashes(readBack: Map<string, DiskVersion>): KnownHashes {
  return {
    oidOf(relativePath, stats, mode) {
      const found = readBack.get(relativePath);
      if (found?.file === undefined || found.file.mode !== mode) return undefined;
      return isSameIdentity(found.identity, fileIdentityOf(stats)) ? found.file.oid : undefined;
    },
  };
}
