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

/**
 * Adds up the disk space of the store's loose objects and packs (as git's own `count-objects -v`
 * does); `estimateLoose` skips one stat per loose object, for frequent checks.
 */
export async function measureStore(
  objectsDir: string,
  options: { readonly estimateLoose?: boolean } = {},
): Promise<StoreUsage> {
  let bytes = 0;
  let looseObjects = 0;
  let packs = 0;
  const fans = await readdir(objectsDir).catch(() => [] as string[]);
  const measure = async (fan: string): Promise<void> => {
    const folder = path.join(objectsDir, fan);
    if (/^[0-9a-f]{2}$/.test(fan)) {
      const names = (await readdir(folder).catch(() => [] as string[])).filter(isLooseObjectName);
      looseObjects += names.length;
      // A quick look counts a loose object as one 4 KiB block instead of asking for each one's size.
      if (options.estimateLoose === true) {
        bytes += names.length * 4096;
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
  if (options.estimateLoose === true) await Promise.all(fans.map(measure));
  else for (const fan of fans) await measure(fan);
  return { bytes, looseObjects, packs };
}
