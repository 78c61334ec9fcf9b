/**
 * The compare room's face: what diff, restore and history share. Trees compared with each other
 * (`diffTrees`), the live directory read as a tree, the two sides of a comparison, a file's version
 * on disk, path scopes and line diffs. It imports neither `diff/` nor `restore/`, and they do not
 * import each other (lint enforces both): they meet here.
 */
// Known hashes live with the snapshot's stat cache (the engine uses them too, without the rest of this room).
export { knownHashesLoader, knownHashesOf, loadKnownHashes, noKnownHashes } from '../snapshot/known-hashes';
export type { KnownHashes } from '../snapshot/known-hashes';
export { isBadName, overlayReader, readLiveTree, storedPathExclusion } from './diff-live-tree';
export type { LiveTree, LiveTreeOptions, LiveTreeRules } from './diff-live-tree';
export { createPathScope, normalizeRelativePath } from './diff-path-scope';
export type { PathScope } from './diff-path-scope';
export { openDiffSides, readSideContent } from './diff-sides';
export type { DiffAgainst, DiffEngine, DiffSides } from './diff-sides';
export { defaultTextDiffLimits, diffText, isBinaryContent } from './diff-text';
export type { TextDiff, TextDiffLimits } from './diff-text';
export { diffTrees, lookupPath } from './diff-tree-changes';
export type { TreeChange, TreeFile, TreeReader } from './diff-tree-changes';
export { absoluteIn, diskEntry, entriesUnder, hasRealFolders } from './disk-entry';
export type { DiskEntry } from './disk-entry';
export { readDiskVersion } from './disk-version';
export type { DiskVersion, KnownOid } from './disk-version';
export { withHeldFileOnDisk } from './held-file-on-disk';
export { readLiveContent } from './live-content';
export { liveRulesOf, readLiveSideNow, readLiveTreeNow } from './live-rules';
export type { LiveRulesOf, LiveSideRules } from './live-rules';
