import type { RootListing } from './root-scan-cache';

/** What a folder's look found, in an order that does not depend on the order the folder was listed in. */
function contentKey(state: { readonly subfolders: readonly string[]; readonly listing: RootListing }): string {
  const { dotGits, heads, settings, links } = state.listing;
  return JSON.stringify([
    [...state.subfolders].sort(),
    dotGits.map((entry) => `${entry.path}\0${String(entry.isFolder)}`).sort(),
    [...heads].sort(),
    [...settings].sort(),
    links.map((link) => `${link.path}\0${link.key}\0${String(link.count)}`).sort(),
  ]);
}

/** Whether two looks at a folder found the same subfolders and the same things that count (their times aside). */
export function isSameFolderContent(
  left: { readonly subfolders: readonly string[]; readonly listing: RootListing },
  right: { readonly subfolders: readonly string[]; readonly listing: RootListing },
): boolean {
  return contentKey(left) === contentKey(right);
}
