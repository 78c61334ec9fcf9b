import type { CheckpointEntry } from '../../checkpoints/checkpoint-types';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { changeSummary, directoryArgument, localTime, withCheckpoints } from './checkpoint-command';

/** Who caused a checkpoint, briefly: `claude · session s-1 · turn 3 · write_file`. */
function attributionText(entry: CheckpointEntry): string {
  const { agent, sessionId, turn, tool } = entry.attribution;
  const parts = [agent, sessionId === undefined ? undefined : `session ${sessionId}`, turn === undefined ? undefined : `turn ${turn}`];
  if (tool !== undefined && !entry.reason.includes(tool)) parts.push(tool);
  return parts.filter((part): part is string => part !== undefined).join(' · ');
}

/** One numbered line of the list, as in the seed: number, short id, time, reason, changes, who. */
export function listLine(entry: CheckpointEntry, number: number, width: number): string {
  const changes = entry.stats.files === 0 ? '' : `  (${changeSummary(entry)})`;
  const who = attributionText(entry);
  const kind = entry.kind === 'pre-rollback' ? '  ↶' : '';
  return `  ${String(number).padStart(width)}. ${entry.id.slice(0, 8)}  ${localTime(entry.time)}  ${entry.reason}${changes}${who === '' ? '' : `  [${who}]`}${kind}`;
}

/** `vigil checkpoints list DIR`: the timeline, numbered 1 = newest. */
export const checkpointsListCommand: CliCommand = {
  name: 'list',
  summary: "List a directory's checkpoints, numbered 1 = newest, with change stats and who made them.",
  usage: 'vigil checkpoints list DIR [--limit N] [--json]',
  help: [
    'Options:',
    '  --limit N  show only the N newest',
    '  --json     print { dir, total, entries } as one JSON document',
    '',
    'Use the numbers with "vigil checkpoints diff DIR N" and "vigil checkpoints restore DIR N".',
  ].join('\n'),
  options: { limit: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'DIR' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    const limitText = stringOption(args, 'limit');
    if (limitText !== undefined && !/^[1-9]\d*$/.test(limitText)) throw new UsageError(`--limit takes a whole number of at least 1, not "${limitText}"`);
    const limit = limitText === undefined ? Number.MAX_SAFE_INTEGER : Number(limitText);
    const { entries, total } = await withCheckpoints(io, async (checkpoints) => ({
      entries: await checkpoints.list(dir, { limit }),
      total: await checkpoints.count(dir),
    }));
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify({ dir: entries[0]?.dir ?? dir, total, entries }));
      return exitCodes.ok;
    }
    if (entries.length === 0) {
      writeLine(io.stdout, `No checkpoints for ${dir}.`);
      return exitCodes.ok;
    }
    writeLine(io.stdout, `Checkpoints for ${entries[0]?.dir ?? dir} (${total}):`);
    writeLine(io.stdout);
    const width = String(entries.length).length;
    entries.forEach((entry, index) => writeLine(io.stdout, listLine(entry, index + 1, width)));
    if (total > entries.length) writeLine(io.stdout, `  … ${total - entries.length} older (drop --limit to see them)`);
    writeLine(io.stdout);
    writeLine(io.stdout, `  vigil checkpoints diff ${dir} <N>       preview changes since checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N>    restore to checkpoint N`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N> <file>   restore a single file from checkpoint N`);
    return exitCodes.ok;
  },
};
