import type { CallResponse } from '../../../shared/contract';
import { escapeControls } from '../../../shared/text/control-characters';
import {
  exitCodes,
  flagOption,
  stringOption,
  UsageError,
  writeLine,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import { restoreOf } from '../cli-services';
import { withMergedCheckpoints, type CliTimelines } from './checkpoints-sources';
import { directoryArgument, localTime } from './checkpoint-command';

/** One changed file of a diff. */
type DiffFile = CallResponse<'checkpoints:diff'>['files'][number];
/** One file's diff. */
type FileDiff = CallResponse<'checkpoints:file-diff'>;
/** Diff, plan and restore as a command reaches them. */
export type CliRestore = ReturnType<typeof restoreOf>;

/** Diff lines shown by default, as in the seed's `/rollback diff` ("capped at 80 lines"). */
const defaultLineCap = 80;

/**
 * Runs `task` with diff and restore over the merged timeline (Vigil's checkpoints and Hermes
 * Agent's, numbered as `vigil checkpoints list` numbers them): the resident core's when one runs,
 * else a one-shot core's. A restore of a memory folder takes the memory locks in either.
 */
export async function withRestoreService<T>(
  io: CliIo,
  task: (restore: CliRestore, engine: CliTimelines) => Promise<T>,
): Promise<T> {
  return withMergedCheckpoints(io, (engine, caller) => task(restoreOf(caller), engine));
}

/** A positive whole number option, or its default. */
function countOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${name} takes a whole number of at least 1, not "${value}"`);
  return Number(value);
}

/** git's `--stat` line of one file: its path, the number of changed lines and a bar of + and -. */
function statLine(file: DiffFile, width: number, scale: number): string {
  const name = escapeControls(file.path).padEnd(width);
  if (file.kind === 'binary' || file.kind === 'too-large')
    return ` ${name} | ${file.kind === 'binary' ? 'Bin' : 'too large to diff'}`;
  const total = file.additions + file.deletions;
  const plus = Math.round(file.additions * scale);
  const minus = Math.round(file.deletions * scale);
  return ` ${name} | ${String(total).padStart(4)} ${'+'.repeat(total > 0 && plus + minus === 0 ? 1 : plus)}${'-'.repeat(minus)}`;
}

/** git's summary line under the stat. */
function summaryLine(files: readonly DiffFile[]): string {
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  return ` ${plural(files.length, 'file')} changed, ${plural(additions, 'insertion')}(+), ${plural(deletions, 'deletion')}(-)`;
}

/** One file's diff in git's unified format (headers, modes, hunks, or a binary note). */
export function unifiedLines(file: FileDiff): string[] {
  const lines = [`diff --git a/${file.path} b/${file.path}`];
  if (file.status === 'added') lines.push(`new file mode ${file.newMode ?? ''}`);
  else if (file.status === 'deleted') lines.push(`deleted file mode ${file.oldMode ?? ''}`);
  else if (file.oldMode !== file.newMode)
    lines.push(`old mode ${file.oldMode ?? ''}`, `new mode ${file.newMode ?? ''}`);
  const oldName = file.status === 'added' ? '/dev/null' : `a/${file.path}`;
  const newName = file.status === 'deleted' ? '/dev/null' : `b/${file.path}`;
  if (file.kind === 'binary')
    return [
      ...lines,
      `Binary files ${oldName} and ${newName} differ (binary, ${file.oldSize ?? 0} → ${file.newSize ?? 0} bytes)`,
    ];
  if (file.kind === 'too-large')
    return [...lines, `(too large to diff: ${file.oldSize ?? 0} → ${file.newSize ?? 0} bytes)`];
  if (file.hunks.length === 0 && file.omittedLines === 0) return lines;
  lines.push(`--- ${oldName}`, `+++ ${newName}`);
  for (const hunk of file.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return lines;
}

/** `vigil checkpoints diff DIR N [FILE]`: what changed since checkpoint N, as a stat and a capped unified diff. */
export const checkpointsDiffCommand: CliCommand = {
  name: 'diff',
  summary: 'Show what changed since a checkpoint: a stat summary, then the diff (capped).',
  usage: 'vigil checkpoints diff DIR N [FILE] [--to M] [--lines L] [--json]',
  help: [
    'N is a number from "vigil checkpoints list DIR" (1 = newest; Vigil\'s or Hermes Agent\'s checkpoint)',
    'or a hex id (or prefix).',
    'Compares checkpoint N with the directory as it is now (excluded and oversize files are not',
    'compared), or with checkpoint M given --to.',
    '',
    'Options:',
    `  --to M      compare with checkpoint M instead of the directory now`,
    `  --lines L   show at most L diff lines (default ${defaultLineCap}; with FILE, 2000)`,
    '  --json      print the file list and the diffs as one JSON document',
    '',
    'Examples:',
    '  vigil checkpoints diff . 1',
    '  vigil checkpoints diff ~/project 3 src/app.ts',
  ].join('\n'),
  options: { to: { type: 'string' }, lines: { type: 'string' }, json: { type: 'boolean' } },
  positionals: { min: 2, max: 3, names: 'DIR and N (a number from "vigil checkpoints list DIR", or an id)' },
  async run(args, io) {
    const [dirArgument, ref = '', file] = args.positionals;
    const dir = directoryArgument(io, dirArgument);
    const to = stringOption(args, 'to');
    const cap = countOption(stringOption(args, 'lines'), '--lines', file === undefined ? defaultLineCap : 2_000);
    const isJson = flagOption(args, 'json');
    return withRestoreService(io, async (restore, engine) => {
      // N and M name checkpoints once: a checkpoint taken meanwhile (Hermes committing) must not shift them between files.
      const from = (await engine.resolve(dir, ref)).id;
      const against =
        to === undefined
          ? ({ kind: 'live' } as const)
          : ({ kind: 'checkpoint', ref: (await engine.resolve(dir, to)).id } as const);
      const page = await restore.diff(dir, from, against, { paths: file === undefined ? [] : [file], limit: 100_000 });
      const diffs: FileDiff[] = [];
      let budget = cap;
      let omitted = 0;
      for (const changed of page.files) {
        if (budget <= 0 && !isJson) {
          omitted += changed.additions + changed.deletions;
          continue;
        }
        const diff = await restore.fileDiff(dir, from, against, changed.path, isJson ? cap : Math.max(1, budget));
        diffs.push(diff);
        budget -= unifiedLines(diff).length;
        omitted += diff.omittedLines;
      }
      if (isJson) {
        writeLine(io.stdout, JSON.stringify({ ...page, diffs }, null, 2));
        return exitCodes.ok;
      }
      const target =
        page.to.kind === 'live'
          ? 'now'
          : `checkpoint ${page.to.checkpoint.id.slice(0, 8)} (${page.to.checkpoint.reason})`;
      writeLine(
        io.stdout,
        `Checkpoint ${page.from.id.slice(0, 8)}  ${localTime(page.from.time)}  ${escapeControls(page.from.reason)} → ${escapeControls(target)}, in ${escapeControls(page.dir)}`,
      );
      if (page.files.length === 0) {
        writeLine(io.stdout, file === undefined ? 'No changes.' : `No changes to ${file}.`);
        return exitCodes.ok;
      }
      writeLine(io.stdout);
      const width = Math.min(60, Math.max(...page.files.map((changed) => changed.path.length)));
      const largest = Math.max(...page.files.map((changed) => changed.additions + changed.deletions));
      const scale = largest > 40 ? 40 / largest : 1;
      for (const changed of page.files) writeLine(io.stdout, statLine(changed, width, scale));
      writeLine(io.stdout, summaryLine(page.files));
      writeLine(io.stdout);
      const body = diffs.flatMap(unifiedLines);
      for (const line of body.slice(0, cap)) writeLine(io.stdout, line);
      const hidden = omitted + Math.max(0, body.length - cap);
      if (hidden > 0) {
        writeLine(io.stdout, '');
        writeLine(
          io.stdout,
          `(diff capped at ${cap} lines; about ${hidden} more not shown: name a FILE, or raise --lines)`,
        );
      }
      return exitCodes.ok;
    });
  },
};
