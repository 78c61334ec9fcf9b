import { readFile } from 'node:fs/promises';
import { createTwoFilesPatch } from 'diff';
import { AppError, isAppError } from '../../shared/errors';
import { errnoCode, type FileIdentity, fileSystemError, readFileIdentity, writeFileAtomic } from '../files';
import { mergeJson, mergeToml, mergeYaml, type EntryPath } from './config-documents';

/** A change to one client's configuration file, planned from what was read. */
export interface ConfigChange {
  readonly file: string;
  /** The file's text as read; undefined when it did not exist. */
  readonly before: string | undefined;
  readonly after: string;
  /** The version read, so that a file changed meanwhile is never overwritten. */
  readonly identity: FileIdentity | undefined;
  /** Permission bits to give the file: 0600 when it will hold a credential; undefined keeps the file's own. */
  readonly mode: number | undefined;
}

/** What to merge: the entry as data (JSON files) and as the printed snippet (YAML files keep its style). */
export interface ConfigEntry {
  readonly format: 'json' | 'yaml' | 'toml';
  readonly path: EntryPath;
  readonly entry: Record<string, unknown>;
  readonly snippet: string;
  readonly holdsCredential: boolean;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw fileSystemError(error, 'read', file);
  }
}

/**
 * Reads a client's configuration file and plans the merge of Vigil's entry into it. A file that
 * cannot be parsed is refused with the parser's message, and nothing is written.
 */
export async function planConfigChange(file: string, entry: ConfigEntry): Promise<ConfigChange> {
  const identity = await readFileIdentity(file);
  const before = await readText(file);
  const after =
    entry.format === 'yaml'
      ? mergeYaml(file, before, entry.path, entry.snippet)
      : entry.format === 'toml'
        ? mergeToml(file, before, entry.path, entry.snippet)
        : mergeJson(file, before, entry.path, entry.entry);
  return { file, before, after, identity, mode: entry.holdsCredential ? 0o600 : undefined };
}

/** Whether applying the change would leave the file as it is. */
export function isNoChange(change: ConfigChange): boolean {
  return change.before === change.after;
}

/** The change as a unified diff of the file (a new file shows as all added lines). */
export function describeChange(change: ConfigChange): string {
  return unifiedFileDiff(change.file, change.before, change.after);
}

/** A file's change as a unified diff: a new file as all added lines, a removed one as all removed. */
export function unifiedFileDiff(file: string, before: string | undefined, after: string | undefined): string {
  return createTwoFilesPatch(
    before === undefined ? '/dev/null' : file,
    after === undefined ? '/dev/null' : file,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  )
    .split('\n')
    .filter((line) => !line.startsWith('====='))
    .join('\n')
    .trimEnd();
}

/**
 * Writes the planned change atomically, only if the file is still the version that was read;
 * otherwise (edited meanwhile, by the client or by hand) nothing is written and the error says to run again.
 */
export async function applyConfigChange(change: ConfigChange, again: string): Promise<void> {
  try {
    await writeFileAtomic(change.file, change.after, {
      ifUnchanged: { identity: change.identity },
      mode: change.mode,
    });
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') {
      throw new AppError(
        'conflict',
        `${change.file} changed since it was read, so nothing was written. Run "${again}" again to see the change against its new contents.`,
        {
          path: change.file,
        },
      );
    }
    throw error;
  }
}
