import type { CallEffect, SessionFile, ToolCallBrief, TurnBrief } from '../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../shared/secrets/mask-secret-values';
import { turnChanges, type EffectsOfCall } from '../../shared/sessions/turn-changes';

/** How many of the latest calls a session's summary carries. */
export const recentCallLimit = 5;
/** How many touched files a session's summary carries. */
export const summaryFileLimit = 12;
/** The most of a turn's user message a summary carries, in UTF-16 units (the transcript keeps it whole). */
export const promptLimit = 500;

/** The start of a user message as a summary carries it: at most `promptLimit` characters, secret-looking values masked. */
export function promptOf(text: string): string {
  const masked = maskSecretValues(text);
  if (masked.length <= promptLimit) return masked;
  // Never cut a surrogate pair in two.
  const code = masked.charCodeAt(promptLimit - 2);
  const cut = code >= 0xd800 && code <= 0xdbff ? promptLimit - 2 : promptLimit - 1;
  return `${masked.slice(0, cut)}…`;
}

/** The latest calls, newest first, from the briefs by sequence number. */
export function recentCalls(briefs: ReadonlyMap<number, ToolCallBrief>, lastSeq: number): ToolCallBrief[] {
  const found: ToolCallBrief[] = [];
  for (let seq = lastSeq; seq > 0 && found.length < recentCallLimit; seq -= 1) {
    const brief = briefs.get(seq);
    if (brief !== undefined) found.push(brief);
  }
  return found;
}

/**
 * Adds a call's effects to what the session touched: per file the latest change and when, the
 * lines added and removed summed over its calls, and whether any change could not be counted.
 */
export function addEffects(files: Map<string, SessionFile>, effects: readonly CallEffect[], at: string): void {
  for (const effect of effects) {
    const known = files.get(effect.path);
    const isCounted = effect.added !== undefined || effect.removed !== undefined || effect.change === 'deleted';
    const added = (known?.added ?? 0) + (effect.added ?? 0);
    const removed = (known?.removed ?? 0) + (effect.removed ?? 0);
    const isPartlyCounted = (known?.isPartlyCounted ?? false) || !isCounted;
    files.delete(effect.path);
    files.set(effect.path, {
      path: effect.path,
      change: known?.change === 'created' && effect.change === 'modified' ? 'created' : effect.change,
      at,
      ...(added > 0 || effect.added !== undefined ? { added } : {}),
      ...(removed > 0 || effect.removed !== undefined ? { removed } : {}),
      ...(isPartlyCounted ? { isPartlyCounted } : {}),
    });
  }
}

/** The files a session touched, most recent first, at most `summaryFileLimit`. */
export function latestFiles(files: ReadonlyMap<string, SessionFile>): SessionFile[] {
  return [...files.values()].reverse().slice(0, summaryFileLimit);
}

/** The most calls a turn's brief lists. */
const turnCallLimit = 20;

/** What a turn's brief is made of: its first user message and its calls (name, arguments as one line, decision, roots touched). */
export interface TurnSource {
  readonly userMessage: string | undefined;
  readonly calls: readonly {
    readonly name: string;
    readonly summary: string;
    readonly decision: TurnBrief['calls'][number]['decision'];
    readonly directories: readonly string[];
  }[];
  /** What its calls changed, call by call. */
  readonly changes: readonly EffectsOfCall[];
}

/** A turn's changeset as a brief carries it: its files, merged over the turn. */
function turnEffects(changes: readonly EffectsOfCall[]): Pick<TurnBrief, 'effects' | 'effectsOmitted'> {
  const merged = turnChanges(changes);
  return {
    effects: merged.files.map((file) => ({
      path: file.path,
      change: file.change,
      added: file.added,
      removed: file.removed,
      ...(file.isPartlyCounted ? { isPartlyCounted: true } : {}),
    })),
    effectsOmitted: merged.omitted,
  };
}

/** A turn's brief, for the rows of its checkpoints. */
export function turnBrief(sessionId: string, turn: number, source: TurnSource): TurnBrief {
  return {
    sessionId,
    turn,
    title: source.userMessage === undefined ? undefined : promptOf(source.userMessage),
    calls: source.calls.slice(0, turnCallLimit).map((call) => ({
      name: call.name,
      summary: maskSecretValues(call.summary),
      decision: call.decision,
      directories: [...call.directories],
    })),
    callCount: source.calls.length,
    ...turnEffects(source.changes),
  };
}
