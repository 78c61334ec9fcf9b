import type { SkipReason } from '../checkpoint-types';

/** Version-control folders, at any depth (a nested repository's own `.git` included; a `.git` file too). */
const vcsNames = new Set(['.git', '.hg', '.svn', '.bzr', '_darcs', '.jj', '.fossil-settings', 'CVS']);

/** Folders never stored, at any depth: dependencies, build outputs, caches, virtualenvs. */
const excludedDirectoryNames = new Set([
  // dependencies
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.pnpm-store',
  '.yarn-cache',
  // build outputs
  'dist',
  'build',
  'out',
  'target',
  '.next',
  '.nuxt',
  '.output',
  '.svelte-kit',
  '.angular',
  '.expo',
  '.vercel',
  '.netlify',
  '.docusaurus',
  // caches
  '.cache',
  '.parcel-cache',
  '.turbo',
  '.vite',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.hypothesis',
  '.tox',
  '.nox',
  '.gradle',
  '.eggs',
  '.terraform',
  '.dart_tool',
  '.sass-cache',
  '.nyc_output',
  '.worktrees',
  // virtualenvs
  '.venv',
  'venv',
  '.virtualenv',
  'virtualenv',
  '.conda',
]);

/** File extensions never stored: binaries, media, archives, databases, logs. */
const excludedExtensions = new Set([
  // binaries and compiled code
  'exe',
  'dll',
  'so',
  'dylib',
  'o',
  'obj',
  'a',
  'lib',
  'class',
  'jar',
  'war',
  'ear',
  'pyc',
  'pyo',
  'pyd',
  'wasm',
  'node',
  'bin',
  'elc',
  'beam',
  // media
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'ico',
  'icns',
  'webp',
  'tif',
  'tiff',
  'psd',
  'heic',
  'avif',
  'raw',
  'mp3',
  'mp4',
  'm4a',
  'm4v',
  'wav',
  'flac',
  'ogg',
  'oga',
  'opus',
  'aac',
  'mov',
  'avi',
  'mkv',
  'webm',
  'wmv',
  'ttf',
  'otf',
  'woff',
  'woff2',
  'eot',
  'pdf',
  // archives and disk images
  'zip',
  'tar',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'lz',
  'lzma',
  'iso',
  'dmg',
  'img',
  'deb',
  'rpm',
  'apk',
  'ipa',
  'whl',
  'nupkg',
  'crx',
  // databases and logs
  'sqlite',
  'sqlite3',
  'db',
  'db-journal',
  'db-wal',
  'mdb',
  'log',
]);

/** Hermes Agent's flock sidecars of memory files: replacing or deleting one in a restore would void the lock held on it. */
const memoryLockSidecars = new Set(['MEMORY.md.lock', 'USER.md.lock']);

/** Whether a name is a version-control folder or file (never stored, tracked or not). */
export function isVcsName(name: string): boolean {
  return vcsNames.has(name);
}

/** Names never stored even when a repository tracks them: Hermes's memory lock sidecars (a restore would void the lock held on one). */
export function isAlwaysExcludedFileName(name: string): boolean {
  return memoryLockSidecars.has(name);
}

/** Environment files (`.env`, `.env.local`, …): the secret part of the exclusion list, never stored. */
function isEnvironmentFile(name: string): boolean {
  return name.startsWith('.env');
}

/** Single files never stored: secrets (`.env`, `.env.local`, …), OS litter and memory lock sidecars. */
function isExcludedFileName(name: string): boolean {
  if (isEnvironmentFile(name) || memoryLockSidecars.has(name)) return true;
  if (name === '.DS_Store' || name === 'Thumbs.db' || name === 'desktop.ini') return true;
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return false;
  return excludedExtensions.has(name.slice(dot + 1).toLowerCase());
}

/** Why a directory of this name is not stored, or undefined when it is walked. */
export function directoryExclusion(name: string): SkipReason | undefined {
  if (vcsNames.has(name)) return 'vcs';
  if (excludedDirectoryNames.has(name) || name.endsWith('.egg-info')) return 'excluded';
  return undefined;
}

/** Why a file (or symlink) of this name is not stored, or undefined when it is. */
export function fileExclusion(name: string): SkipReason | undefined {
  if (vcsNames.has(name)) return 'vcs';
  return isExcludedFileName(name) ? 'excluded' : undefined;
}

/**
 * Why a path relative to a checkpointed directory falls under the exclusion rules (any folder on
 * the way excluded, or the name itself), or undefined when it is stored. Size is not judged here.
 */
export function pathExclusion(relativePath: string): SkipReason | undefined {
  const parts = relativePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  const last = parts.pop();
  for (const part of parts) {
    const reason = directoryExclusion(part);
    if (reason !== undefined) return reason;
  }
  if (last === undefined) return undefined;
  return directoryExclusion(last) ?? fileExclusion(last);
}

/** The exclusion rules in words, for `vigil checkpoints status` and the README. */
export function describeExclusions(): string {
  return [
    `version-control folders: ${[...vcsNames].join(', ')}`,
    `folders: ${[...excludedDirectoryNames].join(', ')}, *.egg-info`,
    `files: .env*, .DS_Store, Thumbs.db, desktop.ini, MEMORY.md.lock, USER.md.lock, and *.${[...excludedExtensions].join(', *.')}`,
  ].join('\n');
}

/** Folders whose every file is a credential (at any depth). */
const secretDirectoryNames = new Set(['.ssh', '.gnupg', '.aws', '.azure', '.kube', '.password-store', '.docker']);

/** Files that hold credentials by name. */
const secretFileNames = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.htpasswd',
  'credentials',
  'credentials.json',
  'credentials.toml',
  'credentials.yml',
  'credentials.yaml',
  'credentials.tfrc.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  'service-account.json',
  'keyfile.json',
]);

/** Extensions of private keys, key stores and encrypted secrets. */
const secretExtensions = new Set(['pem', 'key', 'p12', 'pfx', 'jks', 'keystore', 'ppk', 'kdbx', 'gpg', 'age', 'env']);

/**
 * Why a path holds secrets, or undefined when it does not: `.env*` (the exclusion list's secret
 * part), private keys and key stores, credential files, anything in a credential folder (`.ssh`,
 * `.aws`, …). The one definition: session logs never keep what goes to or comes from such a path.
 */
export function secretPathReason(filePath: string): string | undefined {
  const parts = filePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  const name = parts.pop();
  const folder = parts.find((part) => secretDirectoryNames.has(part));
  if (folder !== undefined) return `it is in a credential folder (${folder})`;
  if (name === undefined) return undefined;
  if (isEnvironmentFile(name)) return 'it is an environment file (.env*)';
  if (secretFileNames.has(name)) return `it is a credential file (${name})`;
  const dot = name.lastIndexOf('.');
  const extension = dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
  return secretExtensions.has(extension) ? `it is a key or secret store (*.${extension})` : undefined;
}
