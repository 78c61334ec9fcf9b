import { escapeControls } from '../../../shared/text/control-characters';
import type { CheckpointEntry } from '../../checkpoints';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { changeSummary, directoryArgument, localTime } from './checkpoint-command';
import { sourceOption, withMergedCheckpoints } from './checkpoints-sources';
import { listDropped } from './checkpoints-dropped-list';

/** Who caused a checkpoint, briefly: `claude · session s-1 · turn 3 · write_file`. */
export function attributionText(entry: CheckpointEntry): string {
  const { agent, sessionId, turn, tool } = entry.attribution;
  const parts = [
    agent,
    sessionId === undefined ? undefined : `session ${sessionId}`,
    turn === undefined ? undefined : `turn ${turn}`,
  ];
  if (tool !== undefined && !entry.reason.includes(tool)) parts.push(tool);
  return parts.filter((part): part is string => part !== undefined).join(' · ');
}

/** One numbered line of the list, as in the seed: number, short id, time, source, reason, changes, who. */
export function listLine(entry: CheckpointEntry, number: number, width: number): string {
  const changes = entry.stats.files === 0 ? '' : `  (${changeSummary(entry)})`;
  const who = entry.source === 'hermes' ? '' : attributionText(entry);
  const kind = `${entry.kind === 'pre-rollback' ? '  ↶' : ''}${entry.isPinned === true ? '  (pinned)' : ''}`;
  const source = (entry.source ?? 'vigil').padEnd(6);
  const name = entry.name === undefined ? '' : `"${escapeControls(entry.name)}"  `;
  return `  ${String(number).padStart(width)}. ${entry.id.slice(0, 8)}  ${localTime(entry.time)}  ${source}  ${name}${escapeControls(entry.reason)}${changes}${who === '' ? '' : `  [${escapeControls(who)}]`}${kind}`;
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
    const { numbered, total } = await withMergedCheckpoints(io, async (checkpoints) => {
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
    for (const { number, entry } of numbered) writeLine(io.stdout, listLine(entry, number, width));
    if (total > numbered.length)
      writeLine(io.stdout, `  … ${total - numbered.length} older (drop --limit to see them)`);
    writeLine(io.stdout);
    writeLine(io.stdout, `  vigil checkpoints diff ${dir} <N>       preview changes since checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N>    restore to checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N> <file>   restore a single file from checkpoint N`);
    return exitCodes.ok;
  },
};
