/**
 * The git store's public face: other folders import only this file (lint enforces it).
 *
 * Plain git objects, packs and refs under `$VIGIL_HOME/checkpoints/store`, readable by git's own
 * command line. The store is the bottom of the checkpoint rooms: it knows nothing of timelines,
 * checkpoints or Hermes, which build on it (`checkpoints/`, `hermes/`).
 */
export { isDurableTemp, writeFileDurably } from './durable-file';
export { collectGarbage } from './garbage-collector';
export type { CollectedCommit, CollectOptions, CollectReport, CommitReader } from './garbage-collector';
export {
  changedTreeItems,
  decodeTree,
  emptyTreeOid,
  encodeTree,
  encodeTreeWithOffsets,
  fileModes,
  hashObject,
  isObjectId,
  objectHeader,
  treeOrder,
  typeOfMode,
} from './git-objects';
export type { EncodedTreeContent, FileMode, ObjectType, StoredTreeEntry, TreeItem } from './git-objects';
export { isLooseObjectName, parseLooseObject } from './loose-objects';
export { ObjectStore } from './object-store';
export { mergeSmallPacks } from './pack-merge';
export type { MergeReport } from './pack-merge';
export { ownBytes, windowBitsFor } from './object-zlib';
export { PackWriter } from './pack-writer';
export type { WrittenPack } from './pack-writer';
export { RefStore } from './ref-store';
export type { DroppedRef } from './ref-store';
export {
  dirHash,
  droppedRefsFolder,
  ignoredFoldersOf,
  realIgnoredFoldersOf,
  registryFile,
  statCacheFile,
  storeLayout,
  timelineRef,
  vigilIdentity,
} from './store-layout';
export type { StoreLayout } from './store-layout';
