/**
 * The checkpoint engine's public face: other folders import only this file (lint enforces it).
 *
 * The engine itself, restore, history, the write ledger and the store watcher are reached through
 * `load…()`, so a process loads them only when it first uses them (a relayed command or a one-shot
 * core that never checkpoints stays small); their types are exported here as usual.
 */
export type { CheckpointApi, CheckpointServiceOptions } from './checkpoint-api';
export { checkpointConfigSchema, readCheckpointSettings, toCheckpointSettings } from './checkpoint-config';
export { type CheckpointOnFailure, readCheckpointOnFailure } from './checkpoint-on-failure';
export { resolveTimelineDirectory } from './checkpoint-directory';
export { createCheckpointHandlers, toContractEntry } from './checkpoint-handlers';
export { CheckpointAnnouncer } from './events/checkpoint-announcer';
export type { CheckpointEventName } from './events/checkpoint-announcer';
export { announceTimelineChanges, createLiveChangeReporter } from './events/timeline-announcements';
export type { CheckpointService } from './checkpoint-service';
export type { FolderChangeFeed, FolderWatch } from './snapshot/folder-change-feed';
export { prestartWalkWorkers } from './snapshot/hash-worker-thread';
export { withWalkHeadStart } from './snapshot/walk-head-start';
export type { WalkHeadStart, WalkHeadStartInput } from './snapshot/walk-head-start';
export type {
  Attribution,
  CheckpointDirectory,
  CheckpointEntry,
  CheckpointOutcome,
  CheckpointRequest,
  CheckpointSource,
  CheckpointStats,
  ListOptions,
  TimelineLookup,
  SkippedPath,
  StoredTreeEntry,
} from './checkpoint-types';
export { createDiffHandlers } from './diff/diff-handlers';
export type { DiffCallName } from './diff/diff-handlers';
export type { DiffService } from './diff/diff-service';
export { createHistoryHandlers } from './history/history-handlers';
export type { HistoryService } from './history/history-service';
export { measureStore } from './maintenance/store-usage';
export { createRestoreHandlers } from './restore/restore-handlers';
export type { RestoreCallName } from './restore/restore-handlers';
export type { RestorePlan } from './restore/restore-plan';
export type { RestoreGuard, RestoreService } from './restore/restore-service';
export type { LedgerView, RecordingCheckpoints, WriteLedger, WriteRecorder } from './restore/restore-write-ledger';
export { checkpointStats } from './snapshot/checkpoint-stats';
export type { KnownBlobs } from './snapshot/checkpoint-stats';
export { directoryExclusion, fileExclusion, pathExclusion, secretPathReason } from './snapshot/exclusion-rules';
export { countLines, isBinary, lineChanges } from './snapshot/line-stats';
export { droppedNumberOf, parseCheckpointRef, pickCheckpoint } from './timeline/checkpoint-ref';
export type { ParsedCommit } from './timeline/commit-message';
export { Timeline } from './timeline/timeline';

/** The checkpoint engine (`CheckpointService`). */
export const loadCheckpointService = () => import('./checkpoint-service');

/** Diffs of a checkpoint with the directory now or another checkpoint (`diffServiceFor`). */
export const loadDiffService = () => import('./diff/diff-service');

/** Restore: plans, apply, line restore (`restoreServiceFor`). */
export const loadRestoreService = () => import('./restore/restore-service');

/** The write ledger: who wrote each version Vigil recorded, and where it lives (`writeLedgerFile`). */
export const loadWriteLedger = () => import('./restore/restore-write-ledger');

/** A file's history and the search of the past (`createHistoryService`). */
export const loadHistoryService = () => import('./history/history-service');

/** Watches the store for checkpoints other processes take (`watchStore`). */
export const loadStoreWatcher = () => import('./timeline/store-watcher');
