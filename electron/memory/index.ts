/**
 * The memory store's public face: other folders import only this file (lint enforces it).
 *
 * Its config, file names and handlers are exported here; the service itself (file state, watchers
 * and chokidar, captures) is reached through `load…()`, so a process loads it only when it first
 * uses it. The targets a relayed CLI command needs live zod-free in `shared/contract/memory-targets.ts`.
 */
export {
  defaultAppearPollMs,
  hermesMemoriesPath,
  memoryConfigSchema,
  memoryDirectoryId,
  resolveDirectoryPath,
} from './memory-config';
export type { MemoryConfig, ResolvedMemoryDirectory } from './memory-config';
export type { ConfiguredMemoryOptions } from './configured-memory-service';
export { sha256Of } from './memory-file';
export { defaultMemoryLimits, joinEntries, memoryFileNames, memoryTargets } from './memory-format';
export { createMemoryHandlers } from './memory-handlers';
export type { MemoryService, MemoryServiceOptions, MutateOptions } from './memory-service';
export type { ReconfigurableMemoryService } from './reconfigurable-memory-service';

/** The memory service itself (`createMemoryService`), for callers that pass its directories in. */
export const loadMemoryService = () => import('./memory-service');

/** The memory service built from config.json and Hermes's home (`createConfiguredMemoryService`), and its restore guard. */
export const loadConfiguredMemoryService = () => import('./configured-memory-service');

/** A memory service rebuilt when its config section changes (`createReconfigurableMemoryService`). */
export const loadReconfigurableMemoryService = () => import('./reconfigurable-memory-service');

/** The watcher of a memory folder (`defaultDebounceMs`, `watchMemoryDirectory`). */
export const loadMemoryWatcher = () => import('./memory-watcher');
