/**
 * Errors of `link()` that mean hard links cannot be made here (a file system without them, another
 * device, too many links to the file): the caller falls back to an exclusive copy or create.
 */
export const noHardLinkCodes: ReadonlySet<string> = new Set([
  'EPERM',
  'ENOTSUP',
  'EOPNOTSUPP',
  'ENOSYS',
  'EXDEV',
  'EMLINK',
]);
