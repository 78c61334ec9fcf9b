import type { Logger } from '../logging/logger';
import type { EventHub } from '../core/event-hub';
import type { VigilPaths } from '../core/vigil-home';
import type { MemoryCheckpointer } from './memory-checkpointer';
import { readMemoryConfig, resolveDirectoryPath, resolveMemoryDirectories } from './memory-config';
import { createMemoryService, type MemoryService, type MemoryServiceOptions } from './memory-service';

/** What a composition root passes to build the memory store from $VIGIL_HOME/config.json. */
export interface ConfiguredMemoryOptions {
  readonly paths: Pick<VigilPaths, 'config' | 'memories'>;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** Where `memory:changed` and background problems go; omitted in one-shot CLI processes. */
  readonly events?: Pick<EventHub, 'emit'>;
  readonly checkpoints?: MemoryCheckpointer;
  readonly watch?: MemoryServiceOptions['watch'];
  /** Manage only this directory (the CLI's `--dir`), with the limits config.json gives it, if any. */
  readonly onlyDirectory?: string;
}

/**
 * Builds the memory service for the directories config.json names (a bad config is an
 * `invalid_request` naming the field), forwarding its changes and problems as contract events.
 */
export async function createConfiguredMemoryService(options: ConfiguredMemoryOptions): Promise<MemoryService> {
  const config = await readMemoryConfig(options.paths.config);
  const configured = options.onlyDirectory === undefined ? config : { ...config, directories: [...config.directories, { path: options.onlyDirectory }] };
  let directories = await resolveMemoryDirectories({ config: configured, vigilMemories: options.paths.memories, env: options.env });
  if (options.onlyDirectory !== undefined) {
    const only = await resolveDirectoryPath(options.onlyDirectory);
    directories = directories.filter((directory) => directory.path === only);
  }
  const { events } = options;
  const service = await createMemoryService({
    directories,
    logger: options.logger,
    ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
    ...(options.watch === undefined ? {} : { watch: options.watch }),
    ...(events === undefined ? {} : { onProblem: (message: string) => events.emit('app:problem-reported', { source: 'memory', message, at: new Date().toISOString() }) }),
  });
  if (events !== undefined) service.onChange((change) => events.emit('memory:changed', change));
  return service;
}
