import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import type { MemoryDirectoryInfo, MemoryTarget } from '../../shared/contract/memory-contract';
import { readConfigSection } from '../config';
import { isDirectory } from '../files';
import { activeHermesHome, hermesHomePaths } from '../hermes';
import { defaultMemoryLimits } from './memory-format';

/** A limit in characters: a whole number the file can hold at least a short entry in. */
const limitSchema = lazySchema(() => z.number().int().min(100).max(1_000_000));

/** Per-target limits; an omitted target keeps its default. */
const limitsSchema = lazySchema(() =>
  z.object({ memory: limitSchema.optional(), user: limitSchema.optional() }).strict(),
);

/** The path of a configured directory: absolute, or starting with `~/`. */
const directoryPathSchema = lazySchema(() =>
  z
    .string()
    .min(1)
    .refine((value) => path.isAbsolute(value) || value === '~' || value.startsWith('~/') || value.startsWith('~\\'), {
      message: 'must be an absolute path or start with ~/',
    }),
);

/** The `memory` section of $VIGIL_HOME/config.json. */
export const memoryConfigSchema = lazySchema(() =>
  z
    .object({
      /** Extra memory directories, or overrides of the defaults' label and limits (matched by path). */
      directories: z
        .array(
          z
            .object({
              path: directoryPathSchema,
              label: z.string().min(1).max(80).optional(),
              limits: limitsSchema.optional(),
            })
            .strict(),
        )
        .max(50)
        .default([]),
      /** Whether $VIGIL_HOME/memories and Hermes's memories folder are managed too (default true). */
      includeDefaults: z.boolean().default(true),
    })
    .strict(),
);

/** The memory section as written in config.json. */
export type MemoryConfig = z.output<typeof memoryConfigSchema>;

/** A memory directory with everything settled: where it is, what it is called, its limits. */
export type ResolvedMemoryDirectory = Pick<MemoryDirectoryInfo, 'id' | 'path' | 'label' | 'source'> & {
  readonly limits: Readonly<Record<MemoryTarget, number>>;
  /** Managed only while its folder exists: Hermes's default folder, which Hermes creates (Vigil never does). */
  readonly isOptional?: boolean;
};

/** The id of a directory: first 16 hex of sha256 of its resolved path (the checkpoint store's rule). */
export function memoryDirectoryId(resolvedPath: string): string {
  return createHash('sha256').update(resolvedPath).digest('hex').slice(0, 16);
}

/** A path resolved through the symlinks of its longest existing part (so a folder that appears later resolves the same). */
async function realpathOfExisting(absolute: string): Promise<string> {
  try {
    return await realpath(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(await realpathOfExisting(parent), path.basename(absolute));
  }
}

/** A path with `~` expanded, made absolute, and resolved through symlinks (as far as it exists). */
export async function resolveDirectoryPath(input: string, home = os.homedir()): Promise<string> {
  const expanded = input === '~' ? home : /^~[\\/]/.test(input) ? path.join(home, input.slice(2)) : input;
  return realpathOfExisting(path.resolve(expanded));
}

/** Reads the memory section of config.json; a missing file means defaults, a bad one is an error naming the field. */
export function readMemoryConfig(configPath: string): Promise<MemoryConfig> {
  return readConfigSection(configPath, 'memory', memoryConfigSchema);
}

/** How often a memory folder that does not exist yet is looked for (one stat). */
export const defaultAppearPollMs = 2000;

/**
 * Where Hermes keeps its memories now, by Hermes's own home rules: $HERMES_HOME/memories, else the
 * active profile's (`~/.hermes/active_profile`), else ~/.hermes/memories.
 */
export async function hermesMemoriesPath(env: NodeJS.ProcessEnv, home = os.homedir()): Promise<string> {
  return hermesHomePaths(await activeHermesHome(env, home)).memories;
}

/** What the directory list is built from. */
export interface MemoryDirectorySources {
  readonly config: MemoryConfig;
  /** $VIGIL_HOME/memories. */
  readonly vigilMemories: string;
  readonly env: NodeJS.ProcessEnv;
  readonly home?: string;
}

/**
 * The memory directories to manage: $VIGIL_HOME/memories, Hermes's folder (optional while it does
 * not exist: managed from the moment Hermes creates it), then the configured ones. A configured
 * path equal to a default overrides its label and limits; one equal to Hermes's folder is Hermes's
 * (so Hermes's flock is always taken there), whether or not the defaults are included.
 */
export async function resolveMemoryDirectories(sources: MemoryDirectorySources): Promise<ResolvedMemoryDirectory[]> {
  const found = new Map<string, ResolvedMemoryDirectory>();
  const put = (directory: ResolvedMemoryDirectory): void => {
    found.set(directory.path, directory);
  };
  const hermes = await resolveDirectoryPath(await hermesMemoriesPath(sources.env, sources.home), sources.home);
  if (sources.config.includeDefaults) {
    const vigil = await resolveDirectoryPath(sources.vigilMemories, sources.home);
    put({
      id: memoryDirectoryId(vigil),
      path: vigil,
      label: 'Vigil memories',
      source: 'vigil',
      limits: defaultMemoryLimits,
    });
    const isPresent = await isDirectory(hermes);
    put({
      id: memoryDirectoryId(hermes),
      path: hermes,
      label: 'Hermes memories',
      source: 'hermes',
      limits: defaultMemoryLimits,
      ...(isPresent ? {} : { isOptional: true }),
    });
  }
  for (const configured of sources.config.directories) {
    const resolved = await resolveDirectoryPath(configured.path, sources.home);
    const existing = found.get(resolved);
    put({
      id: memoryDirectoryId(resolved),
      path: resolved,
      label: configured.label ?? existing?.label ?? (resolved === hermes ? 'Hermes memories' : path.basename(resolved)),
      source: resolved === hermes ? 'hermes' : (existing?.source ?? 'config'),
      limits: { ...(existing?.limits ?? defaultMemoryLimits), ...configured.limits },
    });
  }
  return [...found.values()];
}
