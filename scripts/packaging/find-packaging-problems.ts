// eslint-disable-next-line vigil/public-face -- runs in plain Node, outside the build's face rewrite: the shell's face would load Electron, so this takes the CSP from its own module
import { rendererMetaContentSecurityPolicy } from '../../electron/shell/content-security-policy';
import type { AsarArchive } from './asar-archive';
import { importedPackages } from './bare-imports';
import type { LockfilePackages } from './lockfile-packages';

/** The repository's package.json, as far as the check reads it. */
export interface RootManifest {
  readonly dependencies?: Readonly<Record<string, string>>;
}

/** A package found in the archive's node_modules. */
export interface ShippedPackage {
  readonly name: string;
  readonly version: string;
  /** Its folder inside the archive, such as `/node_modules/zod`. */
  readonly folder: string;
}

/** Files the app cannot start without. */
export const requiredAppFiles = [
  '/package.json',
  '/out/main/main.js',
  // The package's bin (a relayed call and every hook run here) and the ES executable it hands the rest to.
  '/out/main/cli.cjs',
  '/out/main/cli.js',
  '/out/preload/preload.cjs',
  '/out/renderer/index.html',
] as const;

/** The app's own files must live here; anything else outside node_modules is a leak from the repository. */
const appFolders = ['/out/main/', '/out/preload/', '/out/renderer/'] as const;

const packageRoot = /^((?:\/node_modules\/(?:@[^/]+\/)?[^/]+)*\/node_modules\/((?:@[^/]+\/)?[^/]+))\/package\.json$/;

function isInNodeModules(file: string): boolean {
  return file.startsWith('/node_modules/');
}

/** The Content-Security-Policy of a page's `<meta http-equiv>` tag, entities decoded; undefined without one. */
export function metaContentSecurityPolicy(html: string): string | undefined {
  const tag = /<meta\s[^>]*http-equiv=["']?Content-Security-Policy["']?[^>]*>/i.exec(html)?.[0];
  const content = tag === undefined ? undefined : /\scontent="([^"]*)"/i.exec(tag)?.[1];
  return content
    ?.replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function listSome(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/** Every package folder in the archive (nested ones included), read from its package.json. */
export function shippedPackages(archive: AsarArchive): readonly ShippedPackage[] {
  const found: ShippedPackage[] = [];
  for (const file of archive.files) {
    const match = packageRoot.exec(file.path);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const manifest = JSON.parse(archive.read(file.path).toString('utf8')) as { name?: string; version?: string };
    // Sub-path manifests (`zod/v4/package.json`) have no name of their own; the regex keeps only roots.
    found.push({ name: manifest.name ?? match[2], version: manifest.version ?? '', folder: match[1] });
  }
  return found;
}

/**
 * What is wrong with a packaged app.asar: missing entry points, repository files that leaked in
 * (sources, tests, maps), development packages shipped, or run-time imports with no package to
 * satisfy them. Empty when the package is right.
 */
export function findPackagingProblems(
  archive: AsarArchive,
  manifest: RootManifest,
  lock: LockfilePackages,
): readonly string[] {
  const problems: string[] = [];
  const paths = new Set(archive.files.map((file) => file.path));

  const missing = requiredAppFiles.filter((file) => !paths.has(file));
  if (missing.length > 0) problems.push(`missing from app.asar: ${missing.join(', ')}`);
  if (![...paths].some((file) => /^\/out\/renderer\/assets\/[^/]+\.js$/.test(file))) {
    problems.push('the renderer has no script in /out/renderer/assets (was `npm run build` run?)');
  }

  if (paths.has('/out/renderer/index.html')) {
    const policy = metaContentSecurityPolicy(archive.read('/out/renderer/index.html').toString('utf8'));
    if (policy !== rendererMetaContentSecurityPolicy) {
      problems.push(
        `the packaged renderer page's CSP meta tag is ${policy === undefined ? 'missing' : JSON.stringify(policy)}, not the one electron.vite.config.ts writes`,
      );
    }
  }

  const ownFiles = [...paths].filter((file) => !isInNodeModules(file));
  const strays = ownFiles.filter(
    (file) => file !== '/package.json' && !appFolders.some((folder) => file.startsWith(folder)),
  );
  if (strays.length > 0) problems.push(`files from outside out/ are packaged: ${listSome(strays)}`);
  const sources = [...paths].filter((file) => /\.(?:ts|tsx|mts|cts)$/.test(file));
  if (sources.length > 0) problems.push(`TypeScript sources or declarations are packaged: ${listSome(sources)}`);
  const maps = [...paths].filter((file) => file.endsWith('.map'));
  if (maps.length > 0) problems.push(`source maps are packaged: ${listSome(maps)}`);
  const tests = ownFiles.filter((file) => /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file));
  if (tests.length > 0) problems.push(`tests are packaged: ${listSome(tests)}`);

  if (paths.has('/package.json')) {
    const shipped = JSON.parse(archive.read('/package.json').toString('utf8')) as Record<string, unknown>;
    if (shipped['main'] !== 'out/main/main.js')
      problems.push(`the packaged package.json's "main" is ${JSON.stringify(shipped['main'])}, not "out/main/main.js"`);
    if (shipped['devDependencies'] !== undefined)
      problems.push('the packaged package.json still lists devDependencies');
    if (shipped['scripts'] !== undefined) problems.push('the packaged package.json still lists scripts');
  }

  const packages = shippedPackages(archive);
  const development = packages.filter((found) => !lock.production.has(`${found.name}@${found.version}`));
  if (development.length > 0) {
    problems.push(
      `packages that a production install does not contain are packaged: ${listSome(development.map((found) => `${found.name}@${found.version}`))}` +
        ' (devDependencies must stay out of the app; see package-lock.json)',
    );
  }
  const topLevel = new Set(
    packages.filter((found) => found.folder === `/node_modules/${found.name}`).map((found) => found.name),
  );
  const unshippedDependencies = Object.keys(manifest.dependencies ?? {}).filter((name) => !topLevel.has(name));
  if (unshippedDependencies.length > 0)
    problems.push(`dependencies missing from app.asar: ${unshippedDependencies.join(', ')}`);

  for (const file of ownFiles.filter((path) => /\.(?:js|cjs|mjs)$/.test(path))) {
    const imported = importedPackages(archive.read(file).toString('utf8'));
    if (file.startsWith('/out/preload/')) {
      if (imported.length > 0)
        problems.push(
          `the sandboxed preload ${file} loads packages it cannot load: ${imported.join(', ')} (bundle them)`,
        );
      continue;
    }
    if (file.startsWith('/out/renderer/')) continue;
    const unresolved = imported.filter((name) => !topLevel.has(name));
    if (unresolved.length > 0) {
      problems.push(
        `${file} imports ${unresolved.join(', ')}, which app.asar does not contain (a run-time import must be a "dependency")`,
      );
    }
  }
  return problems;
}

/**
 * What is wrong with the files beside app.asar: `resources/` holds app.asar and, only when some
 * package is declared to stay unpacked, `app.asar.unpacked`; nothing but those packages is unpacked,
 * and each of them is unpacked whole (a helper it starts must exist as a plain file).
 */
export function unpackedProblems(
  resources: readonly string[],
  archive: AsarArchive,
  declared: readonly string[],
): readonly string[] {
  const problems: string[] = [];
  const expected = declared.length > 0 ? ['app.asar', 'app.asar.unpacked'] : ['app.asar'];
  const extra = resources.filter((name) => !expected.includes(name));
  const absent = expected.filter((name) => !resources.includes(name));
  if (extra.length > 0 || absent.length > 0)
    problems.push(`resources/ should hold ${expected.join(' and ')}, but holds: ${resources.join(', ')}`);
  const folders = declared.map((name) => `/node_modules/${name}/`);
  const strays = archive.files.filter(
    (file) => file.isUnpacked && !folders.some((folder) => file.path.startsWith(folder)),
  );
  if (strays.length > 0)
    problems.push(
      `files are unpacked that no package in unpackedPackages (electron-builder.config.ts) accounts for: ${listSome(strays.map((file) => file.path))}`,
    );
  for (const [index, folder] of folders.entries()) {
    const files = archive.files.filter((file) => file.path.startsWith(folder));
    if (files.length === 0)
      problems.push(`${declared[index] ?? folder} should be unpacked beside app.asar but is not packaged at all`);
    const packed = files.filter((file) => !file.isUnpacked);
    if (packed.length > 0)
      problems.push(
        `${declared[index] ?? folder} is only partly unpacked; still inside app.asar: ${listSome(packed.map((file) => file.path))}`,
      );
  }
  return problems;
}
