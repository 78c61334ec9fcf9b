import path from 'node:path';

/** Whether paths compare case-insensitively on this platform's usual file systems. */
const isCaseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** Whether `candidate` is `container` itself or lies inside it (both absolute and normalized). */
export function isPathInside(candidate: string, container: string): boolean {
  const relative = isCaseInsensitive
    ? path.relative(container.toLowerCase(), candidate.toLowerCase())
    : path.relative(container, candidate);
  return relative === '' || (!path.isAbsolute(relative) && relative !== '..' && !relative.startsWith(`..${path.sep}`));
}
