import path from 'node:path';

/** Whether paths compare case-insensitively on a platform's usual file systems (Windows, macOS). */
export function isCaseInsensitiveOn(platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/** Whether paths compare case-insensitively on this platform's usual file systems (Windows, macOS). */
export const isCaseInsensitive = isCaseInsensitiveOn(process.platform);

/** A path as a platform's file systems compare it (case-folded where they ignore case): for reasoning about another platform's paths. */
export function pathKeyOn(absolute: string, platform: NodeJS.Platform): string {
  return isCaseInsensitiveOn(platform) ? absolute.toLowerCase() : absolute;
}

/** A path as this platform's file systems compare it (case-folded where they ignore case): a key for maps and locks. */
export function pathKey(absolute: string): string {
  return pathKeyOn(absolute, process.platform);
}

/** Whether a relative path (as `path.relative` returns it) leaves its base. */
function isLeaving(relative: string): boolean {
  return path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`);
}

/** Whether `candidate` is `container` itself or lies inside it (both absolute). */
export function isPathInside(candidate: string, container: string): boolean {
  return !isLeaving(path.relative(pathKey(container), pathKey(candidate)));
}

/** Whether `candidate` lies below `container`: inside it, but not the folder itself (both absolute). */
export function isPathBelow(candidate: string, container: string): boolean {
  const relative = path.relative(pathKey(container), pathKey(candidate));
  return relative !== '' && !isLeaving(relative);
}

/**
 * `candidate` relative to `container` (native separators, `''` for the container itself, spelled as
 * `candidate` spells it), or undefined when it lies outside.
 */
export function relativeInside(container: string, candidate: string): string | undefined {
  const relative = path.relative(container, candidate);
  if (!isLeaving(relative)) return relative;
  const folded = path.relative(pathKey(container), pathKey(candidate));
  if (isLeaving(folded)) return undefined;
  if (folded === '') return '';
  // The same place under another case: keep the candidate's own spelling of its last segments.
  return path.normalize(candidate).split(path.sep).slice(-folded.split(path.sep).length).join(path.sep);
}
