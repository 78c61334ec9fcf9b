import path from 'node:path';
import type { ShellWord } from './shell-lexer';

/** Where a command runs, to resolve the paths it names. */
export interface CommandPlace {
  /** The working directory (absolute). */
  readonly cwd: string;
  /** The user's home directory (what `~` and `$HOME` mean). */
  readonly home: string;
  readonly platform: NodeJS.Platform;
}

/** A path a command names, resolved: absolute, or unknown when it depends on run-time values. */
export interface ResolvedTarget {
  readonly text: string;
  /** The absolute path; for a glob, the folder the glob expands in. Undefined when unknown. */
  readonly path?: string;
  /** The word is a glob: `path` is the folder it expands in, and every file in it may be hit. */
  readonly isGlob: boolean;
}

function pathApi(platform: NodeJS.Platform): typeof path.posix {
  return platform === 'win32' ? path.win32 : path.posix;
}

const homePrefix = /^(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)(?=[\\/]|$)/u;

/**
 * Resolves a path word against the command's place: `~`, `$HOME` and `${HOME}` are the home
 * folder; other expansions (`$X`, `$(…)`) make it unknown; a glob resolves to the folder it
 * expands in (`/*` → `/`, `src/*.ts` → `<cwd>/src`).
 */
export function resolveTarget(target: ShellWord, place: CommandPlace): ResolvedTarget {
  const api = pathApi(place.platform);
  let text = target.text;
  const home = homePrefix.exec(text);
  if (home !== null) text = place.home + text.slice(home[0].length);
  else if (target.isDynamic || text.startsWith('~')) return { text: target.text, isGlob: target.hasGlob };
  if (target.isDynamic && /\$|`/u.test(text)) return { text: target.text, isGlob: target.hasGlob };
  if (!target.hasGlob) return { text: target.text, path: api.resolve(place.cwd, text), isGlob: false };
  const parts = text.split(place.platform === 'win32' ? /[\\/]/u : /\//u);
  const firstGlob = parts.findIndex((part) => /[*?[]/u.test(part));
  const base = parts.slice(0, Math.max(0, firstGlob)).join('/');
  const folder = base === '' ? (text.startsWith('/') ? '/' : '.') : base;
  return { text: target.text, path: api.resolve(place.cwd, folder), isGlob: true };
}

/** Top-level folders of the operating system: removing, moving or chmod-ing them is never allowed. */
const systemFolders = ['bin', 'boot', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'libx32', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var', 'home', 'Users', 'System', 'Library', 'Applications', 'private', 'mnt', 'media', 'snap', 'nix'];

/**
 * Whether a resolved target is the file-system root, the home folder, a top-level system folder
 * (`/usr`, `/etc`, `C:\Windows` …) or a drive root — or a glob over one of them (`/*`, `~/*`).
 */
export function isCriticalTarget(target: ResolvedTarget, place: CommandPlace): boolean {
  if (target.path === undefined) return false;
  const api = pathApi(place.platform);
  const resolved = api.resolve(target.path);
  const fold = (value: string): string => (place.platform === 'win32' ? value.toLowerCase() : value);
  if (fold(resolved) === fold(api.resolve(place.home))) return true;
  const { root } = api.parse(resolved);
  if (fold(resolved) === fold(root)) return true;
  const relative = resolved.slice(root.length);
  if (place.platform === 'win32') return ['windows', 'program files', 'program files (x86)', 'users', 'programdata'].includes(relative.toLowerCase());
  return systemFolders.includes(relative);
}

/** Block devices: writing to them destroys a file system. */
export function isBlockDevice(text: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|sr|mapper\/)/u.test(text) || /^\\\\\.\\(physicaldrive|[a-z]:)/iu.test(text);
}
