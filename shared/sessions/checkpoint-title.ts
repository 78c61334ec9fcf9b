import type { TurnBrief } from '../contract/sessions-contract';
import { maskSecretValues } from '../secrets/mask-secret-values';
import { escapeControls } from '../text/control-characters';

/** What a checkpoint's title reads of it. */
export interface TitledCheckpoint {
  readonly name?: string | undefined;
  readonly reason: string;
  readonly kind: string;
  readonly restores?: string | undefined;
}

/** The longest title kept for a row (the row ellipsizes what does not fit; the transcript keeps the whole message). */
const maxTitleLength = 240;

/**
 * One clean line of a text for a title: its first non-blank line, whitespace collapsed, control
 * characters escaped, cut at `maxTitleLength`; an ellipsis says that more followed (more lines,
 * or a longer line).
 */
export function oneLine(text: string): string {
  const lines = text.split(/\r\n|\r|\n|\u2028|\u2029/u).map((line) => line.replace(/[\t ]+/gu, ' ').trim());
  const index = lines.findIndex((line) => line !== '');
  if (index === -1) return '';
  const first = escapeControls(lines[index] ?? '');
  const hasMore = lines.slice(index + 1).some((line) => line !== '');
  if (first.length > maxTitleLength) return `${first.slice(0, maxTitleLength - 1)}…`;
  return hasMore ? `${first} …` : first;
}

/** A call as a row's words say it: `write_file src/app.ts`, `terminal: rm -rf legacy`, `memory: add memory`. */
function callWords(call: TurnBrief['calls'][number], dir: string): string {
  const summary = call.summary.startsWith(`${dir}/`) ? call.summary.slice(dir.length + 1) : call.summary;
  return call.name === 'terminal' || call.name === 'memory' ? `${call.name}: ${summary}` : `${call.name} ${summary}`;
}

/** Where a row's title comes from: the name given to the checkpoint, the turn's user message, a summary of its calls, or the checkpoint's reason. */
export type TitleSource = 'name' | 'message' | 'calls' | 'reason';

/**
 * A checkpoint row's title: the name a person gave it (rename); else the first line of its turn's user message when the agent sent one;
 * else its turn's calls in this directory ("write_file src/app.ts", "terminal: rm -rf legacy",
 * "+2 more"); else its reason as the commit says it.
 */
export function checkpointTitle(
  entry: TitledCheckpoint,
  brief: TurnBrief | undefined,
  dir: string,
): { readonly text: string; readonly source: TitleSource } {
  const name = entry.name === undefined ? '' : oneLine(entry.name);
  if (name !== '') return { text: name, source: 'name' };
  const message = brief?.title === undefined ? '' : oneLine(maskSecretValues(brief.title));
  if (message !== '') return { text: message, source: 'message' };
  const calls = brief?.calls.filter((call) => call.decision === 'allowed' || call.decision === 'asked-allowed') ?? [];
  const here = calls.filter((call) => call.directories.includes(dir));
  const chosen = here.length > 0 ? here : calls;
  const first = chosen[0];
  if (first !== undefined) {
    const more = (here.length > 0 ? here.length : (brief?.callCount ?? chosen.length)) - 1;
    return {
      text: `${oneLine(maskSecretValues(callWords(first, dir)))}${more > 0 ? ` (+${more} more)` : ''}`,
      source: 'calls',
    };
  }
  return { text: reasonTitle(entry), source: 'reason' };
}

/** A checkpoint's reason as a title: the engine's words for restore points and checkpoints by hand, the commit subject otherwise. */
function reasonTitle(entry: TitledCheckpoint): string {
  if (entry.kind === 'pre-rollback')
    return entry.restores === undefined
      ? 'Restore point taken before a restore'
      : `Restore point taken before restoring ${entry.restores.slice(0, 8)}`;
  if (entry.reason === 'manual checkpoint') return 'Checkpoint taken by hand';
  return oneLine(entry.reason);
}
