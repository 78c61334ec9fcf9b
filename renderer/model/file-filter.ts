/** What the changed-file filter keeps: every file whose path holds the text (letter case aside), or all when it is blank. */
export function filterByPath<T extends { readonly path: string }>(files: readonly T[], text: string): readonly T[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return files;
  return files.filter((file) => file.path.toLowerCase().includes(needle));
}

/** What the filter says beside itself: "3 of 12 files" while it filters, "12 files" when it does not. */
export function filterCount(shown: number, total: number, isFiltering: boolean): string {
  const files = (count: number): string => `${count.toLocaleString('en-US')} ${count === 1 ? 'file' : 'files'}`;
  return isFiltering ? `${shown.toLocaleString('en-US')} of ${files(total)}` : files(total);
}
