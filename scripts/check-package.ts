import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackedPackages, vigilFuses } from '../electron-builder.config';
import { openAsar } from './packaging/asar-archive';
import {
  findPackagingProblems,
  shippedPackages,
  unpackedProblems,
  type RootManifest,
} from './packaging/find-packaging-problems';
import { fuseProblems } from './packaging/fuse-problems';
import { readFuseWire, writeStandInElectron } from './packaging/fuse-wire';
import { lockfilePackages } from './packaging/lockfile-packages';
import { offlineBuilderEnv } from './packaging/offline-env';

/**
 * `npm run test:package`: validates the electron-builder configuration without the network.
 * Builds the app, packages it with electron-builder's `--linux dir` target around a stand-in
 * Electron (a tiny executable carrying Electron's fuse wire, since the runtime cannot be downloaded
 * here), then reads the produced app.asar and binary back: entry points present, nothing from the
 * repository but out/ and package.json, production dependencies only, every run-time import
 * satisfied, and every configured fuse flipped in the binary. Installers (AppImage, deb, dmg, nsis)
 * need electron-builder's downloaded tool sets, so only `npm run dist` on a connected machine makes them.
 * `--skip-build` packages the existing out/ as it is.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

function run(label: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(
      `${result.stdout}${result.stderr}\ncheck-package: ${label} failed (exit ${String(result.status ?? result.signal)}).\n`,
    );
    process.exit(1);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'vigil-package-check-'));
const standIn = path.join(work, 'electron-dist');
mkdirSync(standIn);
writeStandInElectron(standIn);
const output = path.join(work, 'release');

if (!process.argv.includes('--skip-build'))
  run('the build', process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']);
run(
  'electron-builder --linux dir',
  process.execPath,
  [
    path.join(root, 'node_modules/electron-builder/cli.js'),
    '--linux',
    'dir',
    '--publish',
    'never',
    '--config',
    'electron-builder.config.ts',
    `-c.electronDist=${standIn}`,
    `-c.directories.output=${output}`,
  ],
  offlineBuilderEnv(process.env, path.join(work, 'cache')),
);

const unpacked = readdirSync(output).find((name) => /^linux(?:-[a-z0-9]+)?-unpacked$/.test(name));
if (unpacked === undefined) {
  process.stderr.write(`check-package: electron-builder produced no linux-*-unpacked folder in ${output}.\n`);
  process.exit(1);
}
const appDir = path.join(output, unpacked);
const asarPath = path.join(appDir, 'resources/app.asar');
const archive = openAsar(asarPath);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as RootManifest;
const lock = lockfilePackages(JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')));
const fuses = readFuseWire(path.join(appDir, 'vigil'));
const resources = readdirSync(path.join(appDir, 'resources'));
const problems = [
  ...findPackagingProblems(archive, manifest, lock),
  ...fuseProblems(vigilFuses, fuses),
  ...unpackedProblems(resources, archive, unpackedPackages),
];

const packages = shippedPackages(archive);
const bySize = new Map<string, number>();
for (const file of archive.files) {
  const owner = packages
    .filter((found) => file.path.startsWith(`${found.folder}/`))
    .sort((a, b) => b.folder.length - a.folder.length)[0];
  const key = owner?.name ?? '(app: out/ and package.json)';
  bySize.set(key, (bySize.get(key) ?? 0) + file.size);
}
const largest = [...bySize]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 6)
  .map(([name, size]) => `${name} ${megabytes(size)}`);
process.stdout.write(
  [
    `app.asar: ${megabytes(statSync(asarPath).size)}, ${archive.files.length} files, ${packages.length} packages`,
    `largest: ${largest.join(', ')}`,
    `fuses in the packaged binary: ${Object.entries(fuses)
      .map(([name, state]) => `${name}=${state}`)
      .join(', ')}`,
    `checked in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    '',
  ].join('\n'),
);

if (problems.length > 0) {
  process.stderr.write(
    `check-package: ${problems.length} problem(s) (the build is kept in ${work}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`,
  );
  // electron-builder collects the production dependencies from node_modules as a folder: through a link (a
  // worktree sharing another checkout's modules) it misses packages, and the archive then lacks them.
  if (lstatSync(path.join(root, 'node_modules')).isSymbolicLink()) {
    process.stderr.write(
      'check-package: node_modules here is a symbolic link, which electron-builder does not follow when it collects the dependencies it packs; run `npm ci` in this checkout and check again.\n',
    );
  }
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });
process.stdout.write(
  'check-package: the packaged app is complete, holds only out/ and production dependencies, and has every fuse set.\n',
);
