import type { CallResponse } from '../../shared/contract';

/** One supervised directory, as the contract carries it. */
export type TimelineDirectory = CallResponse<'checkpoints:directories'>['directories'][number];

/** A directory as the picker lists it: whether it is one of Vigil's own folders (its memory folders, anything in its data folder). */
export interface PickerDirectory {
  readonly directory: TimelineDirectory;
  readonly isOwn: boolean;
}

function isInside(candidate: string, folder: string): boolean {
  if (folder === '') return false;
  const prefix = folder.endsWith('/') || folder.endsWith('\\') ? folder : `${folder}/`;
  return candidate === folder || candidate.startsWith(prefix) || candidate.startsWith(prefix.replace(/\/$/u, '\\'));
}

/**
 * The picker's order: the folders people work in, most recently active first, then Vigil's own
 * folders (inside its data folder, or a memory folder it manages), most recent first.
 */
export function orderDirectories(
  directories: readonly TimelineDirectory[],
  ownFolders: readonly string[],
): PickerDirectory[] {
  const listed = directories.map((directory) => ({
    directory,
    isOwn: ownFolders.some((folder) => isInside(directory.dir, folder)),
  }));
  return listed.sort((a, b) => {
    if (a.isOwn !== b.isOwn) return a.isOwn ? 1 : -1;
    return a.directory.lastTouch > b.directory.lastTouch
      ? -1
      : a.directory.lastTouch < b.directory.lastTouch
        ? 1
        : a.directory.dir < b.directory.dir
          ? -1
          : 1;
  });
}

/** The directory the timeline opens on: the most recently active one people work in (Vigil's own only when there is nothing else). */
export function defaultDirectory(ordered: readonly PickerDirectory[]): string | undefined {
  return ordered[0]?.directory.dir;
}

/** Whether a directory matches what was typed in the picker's search: every word, in its name or path, case-insensitive. */
export function matchesSearch(directory: TimelineDirectory, query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== '');
  const haystack = directory.dir.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
