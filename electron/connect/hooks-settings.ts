import { isVigilHookCommand, type HookGroup } from '../../shared/connect/hooks-config';
import { AppError } from '../../shared/errors';
import type { HookAgent } from '../../shared/hooks/hook-event';

/** A settings document as JSON.parse gives it. */
type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refused(file: string, why: string): AppError {
  return new AppError(
    'invalid_request',
    `${file}: ${why}, so Vigil will not guess how to change it; nothing was written. Add (or remove) the hooks above by hand.`,
    { path: file },
  );
}

/** Parses a settings file; refuses one that is not a JSON object (or holds comments a rewrite would drop). */
export function parseSettings(file: string, text: string | undefined): JsonRecord {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const hasComments = /^\s*\/[/*]/m.test(text);
    throw new AppError(
      'invalid_request',
      `${file} is not valid JSON (${hasComments ? 'it holds comments, which a rewrite would drop' : (error as Error).message}), so nothing was written (the file is unchanged). Fix it, or add the hooks above by hand.`,
      { path: file },
    );
  }
  if (!isRecord(value)) throw refused(file, 'the file is not a JSON object');
  return value;
}

/** The indentation a JSON file uses (its first indented line), two spaces when it has none. */
function indentOf(text: string | undefined): string | number {
  const match = /^([ \t]+)"/m.exec(text ?? '');
  return match?.[1] ?? 2;
}

/** The document as text, in the file's own indentation. */
export function settingsText(document: JsonRecord, before: string | undefined): string {
  return `${JSON.stringify(document, null, indentOf(before))}\n`;
}

/** A group without Vigil's hooks; undefined when nothing else was in it. */
function groupWithout(group: unknown, agent: HookAgent): { readonly group: unknown; readonly removed: number } {
  if (!isRecord(group) || !Array.isArray(group['hooks'])) return { group, removed: 0 };
  const hooks = group['hooks'] as unknown[];
  const kept = hooks.filter((hook) => !(isRecord(hook) && isVigilHookCommand(hook['command'], agent)));
  const removed = hooks.length - kept.length;
  if (removed === 0) return { group, removed };
  return { group: kept.length === 0 ? undefined : { ...group, hooks: kept }, removed };
}

/**
 * The document without Vigil's hooks for this agent: its hook commands taken out of every group of
 * every event; a group, event or `hooks` object left empty by that removed; everything else — the
 * user's hooks, their order, every other setting — kept as it is.
 */
export function withoutVigilHooks(
  file: string,
  document: JsonRecord,
  agent: HookAgent,
): { readonly document: JsonRecord; readonly removed: number } {
  const hooks = document['hooks'];
  if (hooks === undefined) return { document, removed: 0 };
  if (!isRecord(hooks)) throw refused(file, '"hooks" is not an object');
  let removed = 0;
  const events: JsonRecord = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      events[event] = groups;
      continue;
    }
    const results = groups.map((group) => groupWithout(group, agent));
    const count = results.reduce((sum, result) => sum + result.removed, 0);
    removed += count;
    const kept = results.flatMap((result) => (result.group === undefined ? [] : [result.group]));
    if (count === 0 || kept.length > 0) events[event] = count === 0 ? groups : kept;
  }
  if (removed === 0) return { document, removed };
  const { hooks: _hooks, ...rest } = document;
  return { document: Object.keys(events).length === 0 ? rest : { ...document, hooks: events }, removed };
}

/** The document with Vigil's hooks: any earlier ones replaced (never duplicated), each event's group appended after the user's own. */
export function withVigilHooks(
  file: string,
  document: JsonRecord,
  agent: HookAgent,
  vigil: Readonly<Record<string, readonly HookGroup[]>>,
): JsonRecord {
  const cleared = withoutVigilHooks(file, document, agent).document;
  const existing = cleared['hooks'];
  if (existing !== undefined && !isRecord(existing)) throw refused(file, '"hooks" is not an object');
  const events: JsonRecord = { ...existing };
  for (const [event, groups] of Object.entries(vigil)) {
    const current = events[event];
    if (current !== undefined && !Array.isArray(current)) throw refused(file, `"hooks.${event}" is not a list`);
    events[event] = [...((current ?? []) as readonly unknown[]), ...groups];
  }
  return { ...cleared, hooks: events };
}
