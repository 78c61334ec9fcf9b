import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isLooseObjectName } from '../../git-store';

/** How much room the store's objects take. */
export interface StoreUsage {
  readonly bytes: number;
  readonly looseObjects: number;
  readonly packs: number;
}

/** The room a file takes on disk (its blocks where the platform reports them, else its size). */
function onDisk(info: Stats): number {
  return typeof info.blocks === 'number' && info.blocks > 0 ? info.blocks * 512 : info.size;
}

/** The room a quick look counts for each loose object (one 4 KiB block) instead of asking for its size. */
export const looseObjectEstimateBytes = 4096;

/**
 * The loose-object folders a sampled look lists: 32 of the 256, spread evenly (00, 08, … f8). Object
 * ids are SHA-1 hashes, so each folder holds about 1/256 of the loose objects (git's `gc --auto`
 * estimates the same way from one folder, `objects/17`).
 */
export const sampledLooseFolders: readonly string[] = Array.from({ length: 32 }, (_, index) =>
  (index * 8).toString(16).padStart(2, '0'),
);

/** How many loose objects one sampled folder stands for. */
const sampleScale = 256 / sampledLooseFolders.length;

/**
 * Adds up the disk space of the store's loose objects and packs (as git's own `count-objects -v`
 * does); `estimateLoose` skips one stat per loose object, for frequent checks; `sampleLoose` (which
 * implies it) lists only `sampledLooseFolders` and scales their count up: an estimate, for deciding
 * whether a whole look is needed (packs are always counted whole).
 */
export async function measureStore(
  objectsDir: string,
  options: { readonly estimateLoose?: boolean; readonly sampleLoose?: boolean } = {},
): Promise<StoreUsage> {
  let bytes = 0;
  let looseObjects = 0;
  let packs = 0;
  const isSampled = options.sampleLoose === true;
  const isQuick = isSampled || options.estimateLoose === true;
  // A sampled look lists its folders by name (a missing one lists as empty): not even the objects folder is read.
  const fans = isSampled ? [...sampledLooseFolders, 'pack'] : await readdir(objectsDir).catch(() => [] as string[]);
  const measure = async (fan: string): Promise<void> => {
    const folder = path.join(objectsDir, fan);
    if (/^[0-9a-f]{2}$/.test(fan)) {
      const names = (await readdir(folder).catch(() => [] as string[])).filter(isLooseObjectName);
      const count = isSampled ? names.length * sampleScale : names.length;
      looseObjects += count;
      // A quick look counts a loose object as one 4 KiB block instead of asking for each one's size.
      if (isQuick) {
        bytes += count * looseObjectEstimateBytes;
        return;
      }
      const sizes = await Promise.all(names.map((name) => stat(path.join(folder, name)).then(onDisk, () => 0)));
      for (const size of sizes) bytes += size;
    } else if (fan === 'pack') {
      const names = (await readdir(folder).catch(() => [] as string[])).filter((name) =>
        /^pack-[0-9a-f]{40}\.(pack|idx)$/.test(name),
      );
      packs += names.filter((name) => name.endsWith('.pack')).length;
      const sizes = await Promise.all(names.map((name) => stat(path.join(folder, name)).then(onDisk, () => 0)));
      for (const size of sizes) bytes += size;
    }
  };
  // A quick look lists the folders side by side (a one-shot command runs it before it exits); a
  // full one, which stats every object, goes folder by folder.
  if (isQuick) await Promise.all(fans.map(measure));
  else for (const fan of fans) await measure(fan);
  return { bytes, looseObjects, packs };
}

/**
 * The store's usage as a maintenance check needs it, to decide whether to tidy: the sampled estimate
 * while it puts the store clear of every limit (at most two thirds of the loose objects tolerated,
 * and under the size cap even with all of those more), else a whole count, which then decides. So the
 * 256 folders are listed only near a limit. A store just over the limit is let be for one more check
 * only if the sample undercounts it by a third (1,501 loose objects spread by their hashes over 256
 * folders, 32 sampled: about 5 in 10^7); it is tidied once more objects push the sample up.
 */
export async function checkStoreUsage(
  objectsDir: string,
  limits: { readonly maxLooseObjects: number; readonly maxTotalBytes: number },
): Promise<StoreUsage> {
  const sampled = await measureStore(objectsDir, { sampleLoose: true });
  const isFarFromLimits =
    sampled.looseObjects <= (limits.maxLooseObjects * 2) / 3 &&
    sampled.bytes + limits.maxLooseObjects * looseObjectEstimateBytes <= limits.maxTotalBytes;
  return isFarFromLimits ? sampled : measureStore(objectsDir, { estimateLoose: true });
}
