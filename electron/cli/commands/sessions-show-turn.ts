import path from 'node:path';
import type { HistoryTurn, SessionHistory } from '../../../shared/contract/sessions-contract';
import { changesWords, turnChanges, type TurnChanges } from '../../../shared/sessions/turn-changes';
import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, UsageError, writeLine, type CliIo } from '../cli-command';
import { restoreOf, timelinesOf } from '../cli-services';
import type { ContractCaller } from '../relay/relay-or-local';
import { unifiedLines } from './checkpoints-diff-command';

/** The letter of a file's change, as git's `--name-status` says it. */
const changeLetters = { created: 'A', modified: 'M', deleted: 'D' } as const;

/** The calls of a turn, as far as their changes go. */
function callsOf(turn: HistoryTurn) {
  return turn.entries.flatMap((entry) => (entry.kind === 'tool-call' ? [entry] : []));
}

/** A turn's changeset, over every folder it changed: what the transcript and the timeline rows count. */
export function turnChangesOf(turn: HistoryTurn): TurnChanges {
  return turnChanges(callsOf(turn));
}

/** The turn's changeset as lines: a summary, then one line per file (letter, path, lines). */
export function turnChangeLines(history: SessionHistory, turn: HistoryTurn): string[] {
  const changes = turnChangesOf(turn);
  const lines = [
    `Turn ${turn.turn} of session ${history.session.id}: ${changes.counts.files === 0 ? 'no file changed' : changesWords(changes)}`,
  ];
  for (const file of changes.files) {
    const counts = `+${file.added} −${file.removed}${file.isPartlyCounted ? ' (lines not all counted: a command changed it)' : ''}`;
    lines.push(`  ${changeLetters[file.change]} ${escapeControls(file.path)}  ${counts}`);
  }
  if (changes.omitted > 0)
    lines.push(`  … and ${changes.omitted} more file(s) a command changed, not recorded one by one`);
  return lines;
}

/** Each folder the turn changed, with the checkpoint that holds it as it was before the turn (its first in the turn). */
function beforeCheckpoints(turn: HistoryTurn): Map<string, string> {
  const found = new Map<string, string>();
  for (const call of callsOf(turn))
    for (const checkpoint of call.checkpoints)
      if (checkpoint.checkpointId !== undefined && !found.has(checkpoint.directory))
        found.set(checkpoint.directory, checkpoint.checkpointId);
  return found;
}

/**
 * The checkpoint that holds a folder as the turn left it: the first newer one not of this turn
 * (any actor's), else none (the folder now).
 */
async function afterCheckpoint(
  caller: ContractCaller,
  dir: string,
  before: string,
  sessionId: string,
  turn: number,
): Promise<string | undefined> {
  const entries = await timelinesOf(caller).list(dir, { limit: 2_000 });
  const index = entries.findIndex((entry) => entry.id === before);
  for (let newer = index - 1; newer >= 0; newer -= 1) {
    const entry = entries[newer];
    if (entry !== undefined && (entry.attribution.sessionId !== sessionId || entry.attribution.turn !== turn))
      return entry.id;
  }
  return undefined;
}

/** The diff of the turn's own files in each folder: from its checkpoint before the turn to the one after it (or the folder now). */
async function turnDiffLines(caller: ContractCaller, history: SessionHistory, turn: HistoryTurn): Promise<string[]> {
  const changes = turnChangesOf(turn);
  const lines: string[] = [];
  for (const [dir, before] of beforeCheckpoints(turn)) {
    const files = turnChanges(callsOf(turn), dir).files.map((file) =>
      path.relative(dir, file.path).split(path.sep).join('/'),
    );
    if (files.length === 0) continue;
    const after = await afterCheckpoint(caller, dir, before, history.session.id, turn.turn);
    const against = after === undefined ? ({ kind: 'live' } as const) : ({ kind: 'checkpoint', ref: after } as const);
    lines.push(
      '',
      `In ${escapeControls(dir)}: checkpoint ${before.slice(0, 8)} (before the turn) → ${after === undefined ? 'the folder now' : `checkpoint ${after.slice(0, 8)} (after it)`}`,
    );
    const restore = restoreOf(caller);
    for (const file of files) lines.push(...unifiedLines(await restore.fileDiff(dir, before, against, file, 2_000)));
  }
  if (changes.counts.files > 0 && lines.length === 0)
    lines.push('', 'No checkpoint of this turn holds its files as they were before it: no diff to show.');
  return lines;
}

/** `vigil sessions show ID --turn N [--diff]`: the turn's changeset, and with `--diff` the diff of its files. */
export async function showTurn(
  io: CliIo,
  caller: ContractCaller,
  history: SessionHistory,
  turnNumber: number,
  withDiff: boolean,
): Promise<number> {
  const turn = history.turns.find((candidate) => candidate.turn === turnNumber);
  if (turn === undefined) {
    const known = history.turns.map((candidate) => candidate.turn);
    throw new UsageError(
      `Session ${history.session.id} has no turn ${turnNumber}${known.length === 0 ? ' (it has no turns yet)' : `: its turns are ${known[0]}–${known[known.length - 1]}`}.`,
    );
  }
  for (const line of turnChangeLines(history, turn)) writeLine(io.stdout, line);
  if (withDiff) for (const line of await turnDiffLines(caller, history, turn)) writeLine(io.stdout, line);
  return exitCodes.ok;
}
