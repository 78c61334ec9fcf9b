/**
 * $VIGIL_HOME/config.json: one JSON object with one key per section, each section validated by its
 * own zod schema, owned by the feature it configures:
 *
 *   { "policy": { … electron/policy/policy-config.ts },
 *     "memory": { … electron/memory/memory-config.ts },
 *     "gateway": { … electron/gateway/gateway-config.ts },
 *     "checkpoints": { … electron/checkpoints/checkpoint-config.ts },
 *     "sessions": { … electron/sessions/session-config.ts },
 *     "hooks": { … electron/hooks/hook-config.ts },
 *     "core": { … electron/core/core-config.ts } }
 *
 * NOTE for every feature that adds a section: read it with `readConfigSection(file, 'name', schema)`
 * (or through a `ConfigFile`, which re-reads only when the file changed) and list the section in
 * `configSectionNames` below, so the README and `vigil` can document it. A missing file means every
 * section's defaults; unknown top-level keys are left alone (another version may own them).
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { parseOrThrow } from '../../shared/validation';

/** The sections config.json may hold, each owned by one feature. */
export const configSectionNames = ['policy', 'memory', 'gateway', 'checkpoints', 'sessions', 'hooks', 'core'] as const;

/** The parsed JSON document, or an AppError that names what is wrong with it. */
async function readDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new AppError('io_error', `Could not read ${file}: ${(error as Error).message}. Check its permissions.`, {
      path: file,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `${file} is not valid JSON (${(error as Error).message}). Fix it or remove it to use the defaults.`,
      {
        path: file,
        field: '(root)',
      },
    );
  }
}

/** Parses one section of a config document; a missing section gets the schema's defaults. */
export function parseConfigSection<S extends z.ZodType>(
  document: unknown,
  file: string,
  name: string,
  schema: S,
): z.output<S> {
  const container = parseOrThrow(z.looseObject({}), document, `${file} is invalid`);
  const section: unknown = container[name] ?? {};
  try {
    return parseOrThrow(schema, section, `${file} is invalid in "${name}"`);
  } catch (error) {
    if (error instanceof AppError && typeof error.details?.['field'] === 'string') {
      const field = `${name}.${error.details['field']}`;
      throw new AppError(error.code, error.message.replace(`field "${error.details['field']}"`, `field "${field}"`), {
        ...error.details,
        field,
        path: file,
      });
    }
    throw error;
  }
}

/** Reads one section of config.json: defaults when the file or section is missing, an `invalid_request` naming the field when it is wrong. */
export async function readConfigSection<S extends z.ZodType>(
  file: string,
  name: string,
  schema: S,
): Promise<z.output<S>> {
  return parseConfigSection(await readDocument(file), file, name, schema);
}

/** config.json, re-read only when it changed on disk (its size, mtime or inode). */
export class ConfigFile {
  #stamp: string | undefined;
  #document: Promise<unknown> | undefined;

  constructor(readonly file: string) {}

  /** The current value of one section; throws the AppError that says what is wrong with the file. */
  async section<S extends z.ZodType>(name: string, schema: S): Promise<z.output<S>> {
    const stamp = await stat(this.file).then(
      (stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}`,
      () => 'missing',
    );
    if (stamp !== this.#stamp || this.#document === undefined) {
      this.#stamp = stamp;
      this.#document = readDocument(this.file);
    }
    return parseConfigSection(await this.#document, this.file, name, schema);
  }
}
