import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { historyOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore } from '../relay/relay-or-local';
import { directoryArgument, localTime } from './checkpoint-command';
import { actorText, messageText } from './checkpoints-history-text';

/** `vigil checkpoints search DIR TEXT`: when did TEXT appear in or disappear from a file (what `git log -S` answers). */
export const checkpointsSearchCommand: CliCommand = {
  name: 'search',
  summary: 'Search the past: every checkpoint after which the count of TEXT in a file changed, with the file and who.',
  usage: 'vigil checkpoints search DIR TEXT [--limit N] [--json]',
  help: [
    "Compares each checkpoint of the directory's timeline with the next one (the newest with the directory now)",
    'and lists, newest first, where the number of occurrences of TEXT in a file changed: "0 → 1" is where it',
    'appeared, "1 → 0" where it went away. This is what "git log -S TEXT" answers; binary files are skipped, as',
    'git skips them. The numbers are those of "vigil checkpoints list DIR".',
    '',
    'Options:',
    '  --limit N  at most N places (default 500)',
    '  --json     print { dir, text, checkpoints, hits, isTruncated } as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' }, limit: { type: 'string' } },
  positionals: { min: 2, max: 2, names: 'DIR and TEXT' },
  async run(args, io) {
    const dir = directoryArgument(io, args.positionals[0]);
    const text = args.positionals[1] ?? '';
    if (text === '') throw new UsageError('TEXT is empty: give the text to look for');
    const limitText = stringOption(args, 'limit');
    if (limitText !== undefined && !/^[1-9]\d{0,3}$/.test(limitText))
      throw new UsageError(`--limit takes a whole number from 1 to 9999, not "${limitText}"`);
    const found = await withCore(cliRoute(io), (caller) =>
      historyOf(caller).search(dir, text, limitText === undefined ? 500 : Number(limitText)),
    );
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify(found));
      return exitCodes.ok;
    }
    const quoted = `"${escapeControls(text)}"`;
    if (found.hits.length === 0) {
      writeLine(
        io.stdout,
        `The count of ${quoted} changed in no file across the ${found.checkpoints} checkpoints of ${found.dir}.`,
      );
      return exitCodes.ok;
    }
    writeLine(
      io.stdout,
      `${quoted} in ${found.dir}: ${found.hits.length}${found.isTruncated ? '+' : ''} change(s) across ${found.checkpoints} checkpoints:`,
    );
    writeLine(io.stdout);
    const width = String(found.hits[found.hits.length - 1]?.number ?? 1).length;
    for (const hit of found.hits) {
      const what =
        hit.before === 0 ? 'appeared' : hit.after === 0 ? 'went away' : hit.after > hit.before ? 'more' : 'fewer';
      const until = hit.nextCheckpoint === 'live' ? 'by now' : `by ${hit.nextCheckpoint.slice(0, 8)}`;
      writeLine(
        io.stdout,
        `  ${String(hit.number).padStart(width)}. ${hit.checkpoint.id.slice(0, 8)}  ${localTime(hit.checkpoint.time)}  ${escapeControls(hit.path)}  ${hit.before} → ${hit.after} (${what}, ${until})  [${escapeControls(actorText(hit.checkpoint))}]  ${messageText(hit.turnMessage)}`.trimEnd(),
      );
    }
    if (found.isTruncated) writeLine(io.stdout, `  … older changes not shown (raise --limit)`);
    writeLine(io.stdout);
    writeLine(io.stdout, `  vigil checkpoints diff ${dir} <N> <file>   see that change's starting point against now`);
    return exitCodes.ok;
  },
};
