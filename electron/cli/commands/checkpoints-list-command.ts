import { actorOfCheckpoint, describeActor } from '../../../shared/contract/actor-model';
import type { TurnBrief } from '../../../shared/contract/sessions-contract';
import { checkpointTitle } from '../../../shared/sessions/checkpoint-title';
import { changesWords, turnChanges } from '../../../shared/sessions/turn-changes';
import { escapeControls } from '../../../shared/text/control-characters';
import type { CheckpointEntry, CheckpointSource } from '../../checkpoints';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { changeSummary, directoryArgument, localTime } from './checkpoint-command';
import type { ContractCaller } from '../relay/relay-or-local';
import { sourceOption, withMergedCheckpoints, type CliTimelines } from './checkpoints-sources';
import { listDropped } from './checkpoints-dropped-list';

/** Who caused a checkpoint, briefly: `claude · session s-1 · turn 3 · write_file`; others as the app names them (`you, in the app`, `the CLI`). */
export function attributionText(entry: CheckpointEntry): string {
  const actor = actorOfCheckpoint(entry);
  if (actor.kind !== 'session')
    return actor.kind === 'vigil' && entry.kind !== 'pre-rollback' ? '' : describeActor(actor);
  const { agent, sessionId, turn, tool } = entry.attribution;
  const parts = [
    agent,
    sessionId === undefined ? undefined : `session ${sessionId}`,
    turn === undefined ? undefined : `turn ${turn}`,
  ];
  if (tool !== undefined && !entry.reason.includes(tool)) parts.push(tool);
  return parts.filter((part): part is string => part !== undefined).join(' · ');
}

/**
 * One numbered line of the list, as in the seed: number, short id, time, source, title (the
 * timeline row's: its name, its turn's message or calls, else its reason), what changed (a session
 * turn's own changeset, as its row counts it; else what the checkpoint recorded), who.
 */
export function listLine(entry: CheckpointEntry, number: number, width: number, brief?: TurnBrief): string {
  const title = checkpointTitle(entry, brief, entry.dir);
  const own = brief === undefined || entry.kind === 'pre-rollback' ? undefined : turnChanges([brief], entry.dir);
  const changes =
    own !== undefined
      ? `  (this turn: ${changesWords(own)})`
      : entry.stats.files === 0
        ? ''
        : `  (${changeSummary(entry)})`;
  const reason = title.source === 'reason' || title.source === 'name' ? '' : `  — ${escapeControls(entry.reason)}`;
  const who = entry.source === 'hermes' ? '' : attributionText(entry);
  const kind = `${entry.kind === 'pre-rollback' ? '  ↶' : ''}${entry.isPinned === true ? '  (pinned)' : ''}`;
  const source = (entry.source ?? 'vigil').padEnd(6);
  const shown = title.source === 'name' ? `"${title.text}"  ${escapeControls(entry.reason)}` : title.text;
  return `  ${String(number).padStart(width)}. ${entry.id.slice(0, 8)}  ${localTime(entry.time)}  ${source}  ${shown}${reason}${changes}${who === '' ? '' : `  [${escapeControls(who)}]`}${kind}`;
}

type Numbered = { readonly number: number; readonly entry: CheckpointEntry };

/** The entries shown, numbered as in the whole list, and how many there are. */
async function numberedEntries(
  checkpoints: CliTimelines,
  dir: string,
  source: CheckpointSource | undefined,
  limit: number,
): Promise<{ readonly numbered: readonly Numbered[]; readonly total: number }> {
  if (source === undefined) {
    const entries = await checkpoints.list(dir, { limit });
    return {
      numbered: entries.map((entry, index) => ({ number: index + 1, entry })),
      total: await checkpoints.count(dir),
    };
  }
  // The numbers stay those of the whole list, so "restore DIR N" means the same with or without --source.
  const all = await checkpoints.list(dir, { limit: Number.MAX_SAFE_INTEGER });
  const chosen = all
    .map((entry, index) => ({ number: index + 1, entry }))
    .filter(({ entry }) => (entry.source ?? 'vigil') === source);
  return { numbered: chosen.slice(0, limit), total: chosen.length };
}

/** The key of a checkpoint's turn among the briefs. */
function briefKey(entry: CheckpointEntry): string {
  return `${entry.attribution.sessionId ?? ''}\0${entry.attribution.turn ?? ''}`;
}

/** What the listed checkpoints' turns were about and changed, by `briefKey` (the rows' titles and counts). */
async function turnBriefsOf(caller: ContractCaller, numbered: readonly Numbered[]): Promise<Map<string, TurnBrief>> {
  const turns = numbered.flatMap(({ entry }) => {
    const { sessionId, turn } = entry.attribution;
    const isKnown = sessionId !== undefined && /^[A-Za-z0-9_-]{1,64}$/u.test(sessionId) && entry.source !== 'hermes';
    return isKnown && turn !== undefined && turn >= 1 ? [{ sessionId, turn }] : [];
  });
  if (turns.length === 0) return new Map();
  // Without the briefs (an older core), the rows keep their reasons and recorded counts.
  const answer = await caller.call('sessions:turns', { turns: turns.slice(0, 2_000) }).catch(() => ({ turns: [] }));
  return new Map(answer.turns.map((brief) => [`${brief.sessionId}\0${brief.turn}`, brief]));
}

/** `vigil checkpoints list DIR`: the timeline of both sources, numbered 1 = newest. */
export const checkpointsListCommand: CliCommand = {
  name: 'list',
  summary:
    "List a directory's checkpoints (Vigil's and Hermes Agent's), numbered 1 = newest, with change stats and who made them.",
  usage: 'vigil checkpoints list DIR [--source vigil|hermes] [--limit N] [--dropped] [--json]',
  help: [
    "Vigil's own checkpoints and those Hermes Agent recorded ($HERMES_HOME, else ~/.hermes; read, never",
    'written) form one list, newest first; the source column says which is which.',
    '',
    'Options:',
    '  --source S  only vigil or only hermes checkpoints; the numbers stay those of the whole list',
    '  --limit N   show only the N newest',
    '  --dropped   list the recently dropped checkpoints instead (cut by retention, the size cap or a prune),',
    '              d1 = newest; "vigil checkpoints restore DIR d1" restores one until it expires',
    '  --json      print { dir, total, entries } as one JSON document (each entry with its number and source)',
    '',
    'Use the numbers with "vigil checkpoints diff DIR N" and "vigil checkpoints restore DIR N",',
    'whichever source the checkpoint comes from; ids (or their first characters) work too.',
  ].join('\n'),
  options: {
    limit: { type: 'string' },
    json: { type: 'boolean' },
    source: { type: 'string' },
    dropped: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1, names: 'DIR' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    if (flagOption(args, 'dropped')) return listDropped(io, dir, flagOption(args, 'json'));
    const limitText = stringOption(args, 'limit');
    if (limitText !== undefined && !/^[1-9]\d*$/.test(limitText))
      throw new UsageError(`--limit takes a whole number of at least 1, not "${limitText}"`);
    const limit = limitText === undefined ? Number.MAX_SAFE_INTEGER : Number(limitText);
    const source = sourceOption(args);
    const { numbered, total, briefs } = await withMergedCheckpoints(io, async (checkpoints, caller) => {
      const listed = await numberedEntries(checkpoints, dir, source, limit);
      return { ...listed, briefs: await turnBriefsOf(caller, listed.numbered) };
    });
    const shownDir = numbered[0]?.entry.dir ?? dir;
    if (flagOption(args, 'json')) {
      const entries = numbered.map(({ number, entry }) => ({ number, ...entry, source: entry.source ?? 'vigil' }));
      writeLine(io.stdout, JSON.stringify({ dir: shownDir, total, entries }));
      return exitCodes.ok;
    }
    if (numbered.length === 0) {
      writeLine(io.stdout, `No ${source === undefined ? '' : `${source} `}checkpoints for ${dir}.`);
      return exitCodes.ok;
    }
    writeLine(io.stdout, `Checkpoints for ${shownDir}${source === undefined ? '' : ` from ${source}`} (${total}):`);
    writeLine(io.stdout);
    const width = String(numbered[numbered.length - 1]?.number ?? 1).length;
    for (const { number, entry } of numbered)
      writeLine(io.stdout, listLine(entry, number, width, briefs.get(briefKey(entry))));
    if (total > numbered.length)
      writeLine(io.stdout, `  … ${total - numbered.length} older (drop --limit to see them)`);
    writeLine(io.stdout);
    writeLine(io.stdout, `  vigil checkpoints diff ${dir} <N>       preview changes since checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N>    restore to checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N> <file>   restore a single file from checkpoint N`);
    return exitCodes.ok;
  },
};
