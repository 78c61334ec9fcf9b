import path from 'node:path';
import { pathKeyOn } from '../lib';
import type { ShellWord } from './shell';

/** Where a command runs, to resolve the paths it names. */
export interface CommandPlace {
  /** The working directory (absolute). */
  readonly cwd: string;
  /** The user's home directory (what `~` and `$HOME` mean). */
  readonly home: string;
  readonly platform: NodeJS.Platform;
}

/** A directory a command may run in: absolute, or undefined when it is only known at run time (`cd $X`). */
export type WorkingDirectory = string | undefined;

/** A path a command names, resolved: absolute, or unknown when it depends on run-time values. */
export interface ResolvedTarget {
  readonly text: string;
  /** The absolute path; for a glob, the folder the glob expands in. Undefined when unknown. */
  readonly path?: string;
  /** The word is a glob: `path` is the folder it expands in, and every file in it may be hit. */
  readonly isGlob: boolean;
  /** For a glob: the whole pattern made absolute (`/home/ada/.ss?/id_rsa`), to tell what it could reach. */
  readonly pattern?: string;
}

function pathApi(platform: NodeJS.Platform): typeof path.posix {
  return platform === 'win32' ? path.win32 : path.posix;
}

const homePrefix = /^(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)(?=[\\/]|$)/u;
/** Brace expansions that expand to more words than this make the word unknown. */
const maxBraceWords = 64;

/** The alternatives of one brace body (`a,b` or `1..3`), or undefined when it is not an expansion. */
function braceAlternatives(inner: string, commas: readonly number[]): string[] | undefined {
  if (commas.length > 0) {
    const cuts = [-1, ...commas, inner.length];
    return cuts.slice(1).map((cut, index) => inner.slice((cuts[index] ?? 0) + 1, cut));
  }
  const range = /^(-?[0-9]+|[A-Za-z])\.\.(-?[0-9]+|[A-Za-z])(?:\.\.-?[0-9]+)?$/u.exec(inner);
  if (range === null) return undefined;
  const isNumeric = /[0-9]/u.test(range[1] ?? '');
  const from = isNumeric ? Number(range[1]) : (range[1] ?? 'a').charCodeAt(0);
  const to = isNumeric ? Number(range[2]) : (range[2] ?? 'a').charCodeAt(0);
  if (Math.abs(to - from) >= maxBraceWords) return [];
  const step = from <= to ? 1 : -1;
  const values: string[] = [];
  for (let value = from; step > 0 ? value <= to : value >= to; value += step)
    values.push(isNumeric ? String(value) : String.fromCharCode(value));
  return values;
}

/**
 * The words a brace expansion makes (`{a,b}/x` → `a/x`, `b/x`; `f{1..3}`), left to right as bash
 * does; undefined when there would be more than 64 (or a range is too long).
 */
export function expandBraces(text: string): string[] | undefined {
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    let depth = 0;
    let close = -1;
    const commas: number[] = [];
    for (let index = open; index < text.length && close === -1; index += 1) {
      const char = text[index];
      if (char === '{') depth += 1;
      else if (char === '}') {
        depth -= 1;
        if (depth === 0) close = index;
      } else if (char === ',' && depth === 1) commas.push(index - open - 1);
    }
    if (close === -1) return [text];
    const alternatives = braceAlternatives(text.slice(open + 1, close), commas);
    if (alternatives === undefined) continue;
    if (alternatives.length === 0) return undefined;
    const words: string[] = [];
    for (const alternative of alternatives) {
      const expanded = expandBraces(text.slice(0, open) + alternative + text.slice(close + 1));
      if (expanded === undefined) return undefined;
      words.push(...expanded);
      if (words.length > maxBraceWords) return undefined;
    }
    return words;
  }
  return [text];
}

function resolveOne(word: ShellWord, text: string, cwd: WorkingDirectory, place: CommandPlace): ResolvedTarget {
  const api = pathApi(place.platform);
  const isGlob = word.hasGlob && /[*?[]/u.test(text);
  if (!api.isAbsolute(text) && cwd === undefined) return { text: word.text, isGlob };
  const base = cwd ?? api.parse(text).root;
  if (!isGlob) return { text: word.text, path: api.resolve(base, text), isGlob: false };
  const parts = text.split(place.platform === 'win32' ? /[\\/]/u : /\//u);
  const firstGlob = parts.findIndex((part) => /[*?[]/u.test(part));
  const folder = parts.slice(0, Math.max(0, firstGlob)).join('/');
  const pattern = api.resolve(base, text).split(api.sep).join('/');
  return {
    text: word.text,
    path: api.resolve(base, folder === '' ? (api.isAbsolute(text) ? api.parse(text).root : '.') : folder),
    isGlob: true,
    pattern,
  };
}

/**
 * Resolves a path word in every directory the command may run in: brace expansions give several
 * paths; `~`, `$HOME` and `${HOME}` are the home folder; other expansions (`$X`, `$(…)`) and an
 * unknown directory make a relative word unknown; a glob resolves to the folder it expands in
 * (`/*` → `/`, `src/*.ts` → `<cwd>/src`) and keeps its whole pattern.
 */
export function resolveTargets(
  target: ShellWord,
  cwds: readonly WorkingDirectory[],
  place: CommandPlace,
): ResolvedTarget[] {
  const unknown: ResolvedTarget = { text: target.text, isGlob: target.hasGlob };
  const texts = target.isDynamic && target.text.includes('{') ? expandBraces(target.text) : [target.text];
  if (texts === undefined) return [unknown];
  const found = new Map<string, ResolvedTarget>();
  for (const written of texts) {
    const home = homePrefix.exec(written);
    const text = home === null ? written : place.home + written.slice(home[0].length);
    const isUnknown = (home === null && text.startsWith('~')) || (target.isDynamic && /\$|`/u.test(text));
    for (const cwd of isUnknown ? [undefined] : cwds) {
      const resolved = isUnknown ? unknown : resolveOne(target, text, cwd, place);
      found.set(`${resolved.path ?? `?${resolved.text}`}\0${resolved.pattern ?? ''}`, resolved);
    }
  }
  return [...found.values()];
}

/** Top-level folders of the operating system: removing, moving or chmod-ing them is never allowed. */
const systemFolders = [
  'bin',
  'boot',
  'dev',
  'etc',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'opt',
  'proc',
  'root',
  'sbin',
  'srv',
  'sys',
  'usr',
  'var',
  'home',
  'Users',
  'System',
  'Library',
  'Applications',
  'private',
  'mnt',
  'media',
  'snap',
  'nix',
];

/**
 * Whether a resolved target is the file-system root, the home folder, a top-level system folder
 * (`/usr`, `/etc`, `C:\Windows` …) or a drive root — or a glob over one of them (`/*`, `~/*`).
 */
export function isCriticalTarget(target: ResolvedTarget, place: CommandPlace): boolean {
  if (target.path === undefined) return false;
  const api = pathApi(place.platform);
  const resolved = api.resolve(target.path);
  const fold = (value: string): string => pathKeyOn(value, place.platform);
  if (fold(resolved) === fold(api.resolve(place.home))) return true;
  const { root } = api.parse(resolved);
  if (fold(resolved) === fold(root)) return true;
  const relative = resolved.slice(root.length);
  if (place.platform === 'win32')
    return ['windows', 'program files', 'program files (x86)', 'users', 'programdata'].includes(relative.toLowerCase());
  return systemFolders.includes(relative);
}

/** Block devices: writing to them destroys a file system. */
export function isBlockDevice(text: string): boolean {
  return (
    /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|sr|mapper\/)/u.test(text) ||
    /^\\\\\.\\(physicaldrive|[a-z]:)/iu.test(text)
  );
}
