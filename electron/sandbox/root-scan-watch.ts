/** The running watch over a folder (the core's directory watchers; see FolderChangeFeed). */
export interface ScanFolderWatch {
  /** Changes when the watcher may have missed events: a state checked under another value is checked again. */
  readonly epoch: number;
  /** Whether a change to the folder's entries is reported. */
  covers(folder: string): boolean;
  /** Whether a change to the entries of `subfolder`, a folder inside one `covers` vouches for, is reported (the same answer, cheaper). */
  coversSubfolder(subfolder: string): boolean;
  /** Resolves once every change made before the call was reported; false when that could not be made sure. */
  catchUp(): Promise<boolean>;
}

/** Where a resident core's watchers report changes: the cache then reads again only the folders that changed. */
export interface ScanFolderEvents {
  watchOf(folder: string): ScanFolderWatch | undefined;
  /** Calls `listener` with the absolute path of each change; returns the disposer. */
  onChanged(listener: (absolutePath: string) => void): () => void;
}

/** Changes kept per root between two looks; past this many, the next look checks every folder. */
export const maxChanges = 20_000;

/** The changes reported under one root since its last look. */
export interface RootChanges {
  paths: Set<string>;
  isOverflowed: boolean;
}
