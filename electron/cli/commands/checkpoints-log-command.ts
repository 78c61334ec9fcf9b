import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, flagOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { historyOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore } from '../relay/relay-or-local';
import { directoryArgument, localTime } from './checkpoint-command';
import { actorText, messageText } from './checkpoints-history-text';

const statusWords = {
  added: 'created after it',
  modified: 'changed after it',
  deleted: 'deleted after it',
  'type-changed': 'became a link (or stopped being one) after it',
} as const;

/** `vigil checkpoints log DIR FILE`: every checkpoint after which FILE changed, across sessions, with who and the turn's message. */
export const checkpointsLogCommand: CliCommand = {
  name: 'log',
  summary:
    "A file's history: every checkpoint, across sessions, after which it changed, with who and the turn's message.",
  usage: 'vigil checkpoints log DIR FILE [--json]',
  help: [
    "Walks the directory's whole timeline (Vigil's checkpoints and Hermes Agent's) and lists, newest first, each",
    'checkpoint after which FILE changed: by the next checkpoint, or for the newest, in the directory now. A',
    "checkpoint is taken before a turn's first change, so the change after it is that turn's; the line names the",
    'agent and the turn\'s first user message. The numbers are those of "vigil checkpoints list DIR":',
    '"vigil checkpoints diff DIR N FILE" compares that version with now, "vigil checkpoints restore DIR N FILE" brings it back.',
    '',
    'Options:',
    '  --json  print { dir, path, checkpoints, entries } as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 2, max: 2, names: 'DIR and FILE (relative to DIR)' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    const file = args.positionals[1] ?? '';
    if (file.trim() === '') throw new UsageError('missing FILE');
    const log = await withCore(cliRoute(io), (caller) => historyOf(caller).fileLog(dir, file));
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify(log));
      return exitCodes.ok;
    }
    const name = escapeControls(log.path);
    if (log.entries.length === 0) {
      writeLine(io.stdout, `${name} did not change after any of the ${log.checkpoints} checkpoints of ${log.dir}.`);
      return exitCodes.ok;
    }
    writeLine(
      io.stdout,
      `History of ${name} in ${log.dir} (${log.entries.length} of ${log.checkpoints} checkpoints were followed by a change to it):`,
    );
    writeLine(io.stdout);
    const width = String(log.entries[log.entries.length - 1]?.number ?? 1).length;
    for (const entry of log.entries) {
      const { checkpoint } = entry;
      const until = entry.nextCheckpoint === 'live' ? 'by now' : `by ${entry.nextCheckpoint.slice(0, 8)}`;
      const title = checkpoint.name === undefined ? '' : `"${escapeControls(checkpoint.name)}"  `;
      writeLine(
        io.stdout,
        `  ${String(entry.number).padStart(width)}. ${checkpoint.id.slice(0, 8)}  ${localTime(checkpoint.time)}  ${title}${statusWords[entry.status]} (${until})  [${escapeControls(actorText(checkpoint))}]  ${messageText(entry.turnMessage)}`.trimEnd(),
      );
    }
    writeLine(io.stdout);
    writeLine(io.stdout, `  vigil checkpoints diff ${dir} <N> ${file}       compare that version with now`);
    writeLine(io.stdout, `  vigil checkpoints restore ${dir} <N> ${file}    bring that version back`);
    return exitCodes.ok;
  },
};
