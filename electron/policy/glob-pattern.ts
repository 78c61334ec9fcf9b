/** Whether paths compare case-insensitively on this platform's usual file systems. */
const isCaseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

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
        const body = glob.slice(index + 1, close).replace(/^!/u, '^').replace(/\\/gu, '\\\\');
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
