/** What package-lock.json (lockfileVersion 2 or 3) says about one installed package. */
interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly dev?: boolean;
  readonly link?: boolean;
}

/** The packages of a lockfile, split by whether the app needs them at run time. */
export interface LockfilePackages {
  /** `name@version` of every package a production install contains. */
  readonly production: ReadonlySet<string>;
  /** Names that only development installs contain (no production entry has that name). */
  readonly developmentOnly: ReadonlySet<string>;
}

/** The package name of a lockfile key such as `node_modules/a/node_modules/@scope/b`. */
function nameOfKey(key: string): string {
  const at = key.lastIndexOf('node_modules/');
  return key.slice(at + 'node_modules/'.length);
}

/** Splits a parsed package-lock.json into production and development-only packages. */
export function lockfilePackages(lock: unknown): LockfilePackages {
  const packages = (lock as { packages?: Record<string, LockEntry> }).packages;
  if (packages === undefined)
    throw new Error('package-lock.json has no "packages" map (lockfileVersion 2 or later is needed)');
  const production = new Set<string>();
  const productionNames = new Set<string>();
  const developmentNames = new Set<string>();
  for (const [key, entry] of Object.entries(packages)) {
    if (key === '' || !key.includes('node_modules/') || entry.link === true) continue;
    const name = entry.name ?? nameOfKey(key);
    if (entry.dev === true) {
      developmentNames.add(name);
    } else {
      production.add(`${name}@${entry.version ?? ''}`);
      productionNames.add(name);
    }
  }
  return { production, developmentOnly: new Set([...developmentNames].filter((name) => !productionNames.has(name))) };
}
