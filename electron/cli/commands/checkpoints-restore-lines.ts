import { quoteShellWords } from '../shell-words';
import type { CallResponse } from '../../../shared/contract';
import { isAppError } from '../../../shared/errors';
import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, UsageError, writeLine, type CliIo } from '../cli-command';
import type { LineRange } from '../cli-services';
import { localTime } from './checkpoint-command';
import { withRestoreService } from './checkpoints-diff-command';

type LinePlan = CallResponse<'checkpoints:plan-restore-lines'>;
type RestoreResult = CallResponse<'checkpoints:restore-lines'>;

/** Diff lines of the preview printed before the rest is counted. */
const maxPreviewLines = 80;

/** `--lines A-B` (or `A`) as a range; wrong usage otherwise. */
export function parseLineRange(text: string): LineRange {
  const match = /^\s*(\d{1,9})\s*(?:[-–:]\s*(\d{1,9}))?\s*$/.exec(text);
  const from = Number(match?.[1] ?? Number.NaN);
  const to = Number(match?.[2] ?? match?.[1] ?? Number.NaN);
  if (match === null || from < 1 || to < from)
    throw new UsageError(
      `--lines takes A-B, lines A to B of the checkpoint's version (1 = the first line, A ≤ B), not "${text}"`,
    );
  return { from, to };
}

function rangeWords(range: LineRange): string {
  return range.from === range.to ? `line ${range.from}` : `lines ${range.from}–${range.to}`;
}

function printLinePlan(io: CliIo, plan: LinePlan, range: LineRange, title: string): void {
  const { checkpoint } = plan;
  writeLine(
    io.stdout,
    `${title} ${rangeWords(range)} of ${escapeControls(plan.path)} in ${escapeControls(plan.dir)} to checkpoint ${checkpoint.id.slice(0, 8)}  ${localTime(checkpoint.time)}  ${escapeControls(checkpoint.reason)}`,
  );
  if (plan.putBack + plan.takenOut === 0) {
    writeLine(io.stdout, `  Nothing to do: those lines already match the checkpoint.`);
    return;
  }
  writeLine(
    io.stdout,
    `  ${plan.putBack} line(s) put back, ${plan.takenOut} taken out; every other line stays as it is now.`,
  );
  if (plan.isChangedOutsideAgents)
    writeLine(
      io.stdout,
      '  ! the file changed outside the agents since the checkpoint; the pre-rollback snapshot keeps its current version.',
    );
  const lines = plan.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines,
  ]);
  for (const line of lines.slice(0, maxPreviewLines)) writeLine(io.stdout, `  ${escapeControls(line)}`);
  if (lines.length > maxPreviewLines)
    writeLine(io.stdout, `  … ${lines.length - maxPreviewLines} more diff lines (--json shows them all)`);
}

function printLineOutcome(io: CliIo, result: RestoreResult, range: LineRange, undoNumber: number | undefined): void {
  const lines = result.plan.lines;
  const target = `checkpoint ${result.plan.checkpoint.id.slice(0, 8)}: ${escapeControls(result.plan.checkpoint.reason)}`;
  const name = escapeControls(lines?.path ?? result.plan.paths[0] ?? '');
  if (result.status === 'nothing-to-do')
    writeLine(io.stdout, `✅ Nothing to restore: ${rangeWords(range)} of ${name} already match ${target}.`);
  else if (result.status === 'complete') {
    writeLine(
      io.stdout,
      `✅ Restored ${rangeWords(range)} of ${name} to ${target}: ${lines?.putBack ?? 0} line(s) put back, ${lines?.takenOut ?? 0} taken out. The file was read back and matches.`,
    );
  } else writeLine(io.stdout, `⚠ Restore incomplete: ${escapeControls(result.outcomes[0]?.message ?? '')}`);
  const pre = result.preRollback.id;
  writeLine(
    io.stdout,
    `A pre-rollback snapshot of the state before was saved: ${pre.slice(0, 8)}${undoNumber === undefined ? '' : ` (checkpoint ${undoNumber})`}.`,
  );
  writeLine(
    io.stdout,
    `Undo this restore: ${quoteShellWords(['vigil', 'checkpoints', 'restore', result.plan.dir, String(undoNumber ?? pre.slice(0, 12)), lines?.path ?? ''])}`,
  );
}

/**
 * `vigil checkpoints restore DIR N FILE --lines A-B`: lines A–B of the checkpoint's version of
 * FILE go back; the rest of the file stays. Exit 2 for lines outside the file (the valid range is
 * named); exit 1, with the whole-file command, when the file cannot have lines restored.
 */
export async function runLineRestore(
  io: CliIo,
  options: {
    readonly dir: string;
    readonly ref: string;
    readonly files: readonly string[];
    readonly rangeText: string;
    readonly isDryRun: boolean;
    readonly isJson: boolean;
  },
): Promise<number> {
  const range = parseLineRange(options.rangeText);
  const [file, ...more] = options.files;
  if (file === undefined || more.length > 0)
    throw new UsageError('--lines restores lines of exactly one FILE: name one');
  try {
    return await withRestoreService(io, async (restore, engine) => {
      const { id } = await engine.resolve(options.dir, options.ref);
      if (options.isDryRun) {
        const plan = await restore.planLines(options.dir, id, file, range);
        if (options.isJson) writeLine(io.stdout, JSON.stringify(plan, null, 2));
        else {
          printLinePlan(io, plan, range, 'Plan: restore');
          writeLine(io.stdout, 'Dry run: nothing was changed. Run it again without --dry-run to restore.');
        }
        return exitCodes.ok;
      }
      const result = await restore.restoreLines(options.dir, id, file, range);
      const newest = await engine.list(result.plan.dir, { limit: 20 });
      const index = newest.findIndex((entry) => entry.id === result.preRollback.id);
      if (options.isJson) writeLine(io.stdout, JSON.stringify(result, null, 2));
      else printLineOutcome(io, result, range, index < 0 ? undefined : index + 1);
      return result.status === 'incomplete' ? exitCodes.failed : exitCodes.ok;
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'invalid_request' && error.details?.field === 'lines') {
      writeLine(io.stderr, `vigil checkpoints restore: ${error.message}`);
      return exitCodes.usage;
    }
    writeLine(io.stderr, `vigil checkpoints restore: ${error.message}`);
    if (error.details?.choice === 'restore-whole-file')
      writeLine(
        io.stderr,
        `To restore the whole file: ${quoteShellWords(['vigil', 'checkpoints', 'restore', options.dir, options.ref, file])}`,
      );
    return exitCodes.failed;
  }
}
