import type { RestoreGuard } from '../checkpoints';
import type { Logger } from '../logging';
import type { EventHub, VigilPaths } from '../lib';
import type { MemoryCheckpointer } from './memory-checkpointer';
import {
  memoryConfigSchema,
  readMemoryConfig,
  resolveDirectoryPath,
  resolveMemoryDirectories,
  type MemoryConfig,
} from './memory-config';
import { createMemoryRestoreGuard } from './memory-restore-guard';
import { createMemoryService, type MemoryService, type MemoryServiceOptions } from './memory-service';
import { newWriterId } from './memory-write-record';

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
  /** The `memory` section in force (a resident core's live configuration); omitted, config.json is read now. */
  readonly config?: () => MemoryConfig;
}

/**
 * Builds the memory service for the directories config.json names (a bad config is an
 * `invalid_request` naming the field), forwarding its changes and problems as contract events.
 */
export async function createConfiguredMemoryService(options: ConfiguredMemoryOptions): Promise<MemoryService> {
  const config = options.config?.() ?? (await readMemoryConfig(options.paths.config));
  const configured =
    options.onlyDirectory === undefined
      ? config
      : { ...config, directories: [...config.directories, { path: options.onlyDirectory }] };
  let directories = await resolveMemoryDirectories({
    config: configured,
    vigilMemories: options.paths.memories,
    env: options.env,
  });
  if (options.onlyDirectory !== undefined) {
    const only = await resolveDirectoryPath(options.onlyDirectory);
    directories = directories.filter((directory) => directory.path === only);
  }
  const { events } = options;
  const service = await createMemoryService({
    directories,
    logger: options.logger,
    checkpoints: options.checkpoints,
    watch: options.watch,
    ...(events === undefined
      ? {}
      : {
          onProblem: (message: string) =>
            events.emit('app:problem-reported', { source: 'memory', message, at: new Date().toISOString() }),
        }),
  });
  if (events !== undefined) service.onChange((change) => events.emit('memory:changed', change));
  return service;
}

/**
 * The restore guard of a process without a memory service (the CLI's `checkpoints restore`): a
 * restore of a configured memory folder takes the memory locks and records itself as Vigil's. A
 * config.json whose memory section is invalid still guards the default folders.
 */
export async function createConfiguredRestoreGuard(
  options: Pick<ConfiguredMemoryOptions, 'paths' | 'env' | 'logger'>,
): Promise<RestoreGuard> {
  const config = await readMemoryConfig(options.paths.config).catch((error: unknown) => {
    options.logger.warn(
      'the memory section of config.json is invalid; restores guard the default memory folders only',
      { error },
    );
    return memoryConfigSchema.parse({});
  });
  const directories = await resolveMemoryDirectories({
    config,
    vigilMemories: options.paths.memories,
    env: options.env,
  });
  return createMemoryRestoreGuard({ directories: () => directories, writer: newWriterId(), logger: options.logger });
}
