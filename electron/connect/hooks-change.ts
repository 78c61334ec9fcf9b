import { readFile, unlink } from 'node:fs/promises';
import type { HookGroup } from '../../shared/connect/hooks-config';
import { AppError } from '../../shared/errors';
import type { HookAgent } from '../../shared/hooks/hook-event';
import { isSameIdentity, readFileIdentity } from '../files';
import { withoutVigilSandbox, withVigilSandbox } from './agent-sandbox-settings';
import { applyConfigChange, unifiedFileDiff, type ConfigChange } from './config-change';
import { digestOf, readHooksOriginal, type HooksOriginal } from './hooks-original';
import { parseSettings, settingsText, withoutVigilHooks, withVigilHooks } from './hooks-settings';

/** A planned change of a settings file: its new text, or (`after` undefined) its removal. */
export interface HooksChange {
  readonly file: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
  readonly identity: ConfigChange['identity'];
}

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AppError('io_error', `Could not read ${file}: ${(error as Error).message}.`, { path: file });
  });
}

/** The change as a unified diff (a new file as all added lines, a removed one as all removed). */
export function describeHooksChange(change: HooksChange): string {
  return unifiedFileDiff(change.file, change.before, change.after);
}

/**
 * `--write`: the settings with Vigil's hooks merged in (the user's kept, an earlier Vigil entry
 * replaced), and what to remember of the file as it was, for `--remove`.
 */
export async function planHooksWrite(
  file: string,
  agent: HookAgent,
  vigil: Readonly<Record<string, readonly HookGroup[]>>,
  vigilHome: string,
): Promise<{ readonly change: HooksChange; readonly original: HooksOriginal }> {
  const identity = await readFileIdentity(file);
  const before = await readText(file);
  const document = parseSettings(file, before);
  const after = settingsText(withVigilSandbox(withVigilHooks(file, document, agent, vigil), agent, vigilHome), before);
  const kept = await readHooksOriginal(vigilHome, file);
  const hasVigil = withoutVigilHooks(file, document, agent).removed > 0;
  // Vigil's own earlier write, untouched since: the file as it was before that write is still the original.
  const original: HooksOriginal['before'] =
    kept !== undefined && before !== undefined && kept.written === digestOf(before)
      ? kept.before
      : hasVigil
        ? { kind: 'unknown' }
        : before === undefined
          ? { kind: 'absent' }
          : { kind: 'text', text: before };
  return { change: { file, before, after, identity }, original: { file, before: original, written: digestOf(after) } };
}

/**
 * `--remove`: the file exactly as it was before `--write` when it is still exactly what Vigil wrote
 * (byte for byte; a file Vigil created is removed); otherwise the file with Vigil's hooks taken out
 * and all else kept. Undefined when it holds no Vigil hooks.
 */
export async function planHooksRemove(
  file: string,
  agent: HookAgent,
  vigilHome: string,
): Promise<{ readonly change: HooksChange; readonly isExact: boolean } | undefined> {
  const identity = await readFileIdentity(file);
  const before = await readText(file);
  if (before === undefined) return undefined;
  const kept = await readHooksOriginal(vigilHome, file);
  if (kept !== undefined && kept.written === digestOf(before) && kept.before.kind !== 'unknown') {
    return {
      change: { file, before, after: kept.before.kind === 'text' ? kept.before.text : undefined, identity },
      isExact: true,
    };
  }
  const document = parseSettings(file, before);
  const cleared = withoutVigilHooks(file, document, agent);
  const unsandboxed = withoutVigilSandbox(cleared.document, vigilHome);
  if (cleared.removed + unsandboxed.removed === 0) return undefined;
  return { change: { file, before, after: settingsText(unsandboxed.document, before), identity }, isExact: false };
}

/** Applies a planned change, only if the file is still the version that was read. */
export async function applyHooksChange(change: HooksChange, again: string): Promise<void> {
  if (change.after !== undefined) {
    await applyConfigChange(
      { file: change.file, before: change.before, after: change.after, identity: change.identity, mode: undefined },
      again,
    );
    return;
  }
  if (!isSameIdentity(await readFileIdentity(change.file), change.identity)) {
    throw new AppError(
      'conflict',
      `${change.file} changed since it was read, so nothing was removed. Run "${again}" again to see the change against its new contents.`,
      { path: change.file },
    );
  }
  await unlink(change.file);
}
