import path from 'node:path';
import { readLiveText } from '../files';

/** Paths one git configuration file names that git later reads as configuration or runs as code. */
export interface GitConfigPaths {
  /** `core.hooksPath` values, absolute (relative ones resolved against the work tree). */
  readonly hooksPaths: readonly string[];
  /** `include.path` and `includeIf.*.path` files, absolute (relative ones resolved against the including file), followed recursively. */
  readonly includes: readonly string[];
}

/** How deep includes are followed (git's own limit is 10). */
const includeDepth = 10;

/** A value as git reads it: quotes removed, escapes kept simple, a trailing comment dropped. */
function unquote(raw: string): string {
  let out = '';
  let isQuoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] ?? '';
    if (char === '"') isQuoted = !isQuoted;
    else if (char === '\\' && index + 1 < raw.length) {
      const next = raw[index + 1] ?? '';
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      index += 1;
    } else if ((char === '#' || char === ';') && !isQuoted) break;
    else out += char;
  }
  return out.trim();
}

/** The `core.hookspath` and `include(If).path` entries of one configuration text, as written. */
function readEntries(text: string): { readonly hooks: string[]; readonly includes: string[] } {
  const hooks: string[] = [];
  const includes: string[] = [];
  let section = '';
  for (const rawLine of text.split(/\r?\n/u)) {
    let line = rawLine.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]\s*(.*)$/u.exec(line);
    if (header !== null) {
      section = (header[1] ?? '').toLowerCase();
      line = header[3] ?? '';
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/u.exec(line);
    if (entry === null) continue;
    const key = (entry[1] ?? '').toLowerCase();
    const value = unquote(entry[2] ?? '');
    if (value === '') continue;
    if (section === 'core' && key === 'hookspath') hooks.push(value);
    if ((section === 'include' || section === 'includeif') && key === 'path') includes.push(value);
  }
  return { hooks, includes };
}

function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  return value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
}

/**
 * Reads a git configuration file (and the files it includes) for the paths git would run or read
 * from: `core.hooksPath` (relative to `workTree`) and every included file. A file that cannot be
 * read names nothing. Git's syntax is read as far as these keys need (sections, quotes, comments).
 */
export async function gitConfigPaths(configFile: string, workTree: string, home: string): Promise<GitConfigPaths> {
  const hooksPaths: string[] = [];
  const includes: string[] = [];
  const seen = new Set<string>();
  let pending = [configFile];
  for (let depth = 0; depth <= includeDepth && pending.length > 0; depth += 1) {
    const next: string[] = [];
    for (const file of pending) {
      if (seen.has(file)) continue;
      seen.add(file);
      // Followed as git follows it; never waiting on a FIFO the workspace's owner put there.
      const text = await readLiveText(file, { followsSymlink: true });
      if (text === undefined) continue;
      const found = readEntries(text);
      for (const hooks of found.hooks) hooksPaths.push(path.resolve(workTree, expandHome(hooks, home)));
      for (const included of found.includes) {
        const absolute = path.resolve(path.dirname(file), expandHome(included, home));
        includes.push(absolute);
        next.push(absolute);
      }
    }
    pending = next;
  }
  return { hooksPaths, includes };
}
