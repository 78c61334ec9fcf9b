import { isCaseInsensitive } from '../lib';

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/gu, '\\$&');
}

/**
 * Compiles a glob to a regular expression over `/`-separated paths: `**` crosses folders, `*` and
 * `?` do not, `[abc]` is a class, `{a,b}` an alternative. `wordMode` lets `*` match `/` too (for
 * command words such as URLs).
 */
export function globToRegExp(glob: string, wordMode = false): RegExp {
  const any = wordMode ? '.' : '[^/]';
  let out = '';
  let braces = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? '';
    if (char === '*' && glob[index + 1] === '*') {
      const isSegment = (index === 0 || glob[index - 1] === '/') && glob[index + 2] === '/';
      out += isSegment ? '(?:.*/)?' : '.*';
      index += isSegment ? 2 : 1;
    } else if (char === '*') out += `${any}*`;
    else if (char === '?') out += any;
    else if (char === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close === -1) out += '\\[';
      else {
        const body = glob
          .slice(index + 1, close)
          .replace(/^!/u, '^')
          .replace(/\\/gu, '\\\\');
        out += `[${body}]`;
        index = close;
      }
    } else if (char === '{') {
      braces += 1;
      out += '(?:';
    } else if (char === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (char === ',' && braces > 0) out += '|';
    else if (char === '\\' && index + 1 < glob.length) {
      out += escapeRegExp(glob[index + 1] ?? '');
      index += 1;
    } else out += escapeRegExp(char);
  }
  out += ')'.repeat(braces);
  return new RegExp(`^${out}$`, isCaseInsensitive && !wordMode ? 'iu' : 'u');
}

/** Whether a path (any separators) matches a glob. */
export function matchesGlob(candidate: string, glob: string): boolean {
  return globToRegExp(glob.replace(/\\/gu, '/')).test(candidate.replace(/\\/gu, '/'));
}

/**
 * Whether a path that `pattern` (an absolute glob) matches could be `location` or lie inside it:
 * each of the location's segments must match the pattern's segment at that depth, and `**` matches
 * any depth. `~/.ss?/id_rsa` and `~/.s*` reach `~/.ssh`; `~/src/*` does not.
 */
export function globCouldReach(pattern: string, location: string): boolean {
  const patternParts = pattern
    .replace(/\\/gu, '/')
    .split('/')
    .filter((part, index) => part !== '' || index === 0);
  const locationParts = location
    .replace(/\\/gu, '/')
    .split('/')
    .filter((part, index) => part !== '' || index === 0);
  for (let index = 0; index < locationParts.length; index += 1) {
    const part = patternParts[index];
    if (part === undefined) return false;
    if (part.includes('**')) return true;
    if (!globToRegExp(part).test(locationParts[index] ?? '')) return false;
  }
  return true;
}

const hasGlobCharacter = (segment: string): boolean => /[*?[{]/u.test(segment);

/** Whether two path segments could name the same file or folder (two globs are assumed to). */
function segmentsMayOverlap(left: string, right: string): boolean {
  if (hasGlobCharacter(left) && hasGlobCharacter(right)) return true;
  return hasGlobCharacter(left) ? globToRegExp(left).test(right) : globToRegExp(right).test(left);
}

/**
 * Whether two `/`-separated globs could match one path, or one could match a folder holding what
 * the other matches (`secrets/**` and `sec*`; not `secrets/**` and `src/*.ts`). It errs towards
 * yes: two glob segments are taken to overlap.
 */
export function globsMayOverlap(left: string, right: string): boolean {
  const leftParts = left.replace(/\\/gu, '/').split('/');
  const rightParts = right.replace(/\\/gu, '/').split('/');
  for (let index = 0; index < Math.min(leftParts.length, rightParts.length); index += 1) {
    const leftPart = leftParts[index] ?? '';
    const rightPart = rightParts[index] ?? '';
    if (leftPart.includes('**') || rightPart.includes('**')) return true;
    if (!segmentsMayOverlap(leftPart, rightPart)) return false;
  }
  return true;
}
