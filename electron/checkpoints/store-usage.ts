import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isLooseObjectName } from './object-store';

/** How much room the store's objects take. */
export interface StoreUsage {
  readonly bytes: number;
  readonly looseObjects: number;
  readonly packs: number;
}

/** Adds up the store's loose objects and packs (the bytes git's own `count-objects` reports). */
export async function measureStore(objectsDir: string): Promise<StoreUsage> {
  let bytes = 0;
  let looseObjects = 0;
  let packs = 0;
  const fans = await readdir(objectsDir).catch(() => [] as string[]);
  for (const fan of fans) {
    const folder = path.join(objectsDir, fan);
    if (/^[0-9a-f]{2}$/.test(fan)) {
      const names = (await readdir(folder).catch(() => [] as string[])).filter(isLooseObjectName);
      looseObjects += names.length;
      const sizes = await Promise.all(names.map((name) => stat(path.join(folder, name)).then((info) => info.size, () => 0)));
      for (const size of sizes) bytes += size;
    } else if (fan === 'pack') {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (!/^pack-[0-9a-f]{40}\.(pack|idx)$/.test(name)) continue;
        if (name.endsWith('.pack')) packs += 1;
        bytes += await stat(path.join(folder, name)).then((info) => info.size, () => 0);
      }
    }
  }
  return { bytes, looseObjects, packs };
}
