import type { CallResponse } from '../../../shared/contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { writeLine, type CliIo } from '../cli-command';
import { localTime } from './checkpoint-command';

/** The store status as the contract carries it. */
export type StatusView = CallResponse<'checkpoints:status'>;

/** Cuts shown by `vigil checkpoints status` (`--json` has the 20 newest). */
const shownCuts = 10;

/** What the status says about config.json and the latest cuts: nothing is dropped, and no bad edit is ignored, without a word. */
export function printConfigAndCuts(io: CliIo, status: StatusView): void {
  const problem = status.configProblem;
  if (problem !== null && problem !== undefined) {
    writeLine(
      io.stdout,
      `! config.json is invalid at "${problem.field}" (since ${localTime(problem.at)}): ${problem.message}`,
    );
  }
  const cuts = status.cuts ?? [];
  if (cuts.length === 0) {
    writeLine(io.stdout, 'Dropped checkpoints: none recorded.');
    return;
  }
  writeLine(
    io.stdout,
    `Dropped checkpoints (newest first${cuts.length > shownCuts ? `, ${shownCuts} of ${cuts.length}` : ''}):`,
  );
  for (const cut of cuts.slice(0, shownCuts))
    writeLine(io.stdout, `  ${localTime(cut.at)}  ${cut.reason.padEnd(9)} ${cut.message}`);
}

/** ", 2 pinned" after a directory's count, when it has pins. */
export function pinnedText(directory: StatusView['directories'][number]): string {
  return directory.pinned === undefined || directory.pinned === 0 ? '' : `, ${directory.pinned} pinned`;
}

/** How the core finds a directory's changes: watched (checked), or walked and why; each sub-folder walked instead of watched. */
export function printWatch(io: CliIo, directory: StatusView['directories'][number]): void {
  const { watch } = directory;
  if (watch === undefined) return;
  const verified = watch.verifiedAt === undefined ? '' : `, last verified ${localTime(watch.verifiedAt)}`;
  const defects = watch.defects === 0 ? '' : `, ${watch.defects} missed change(s) found and repaired`;
  if (watch.mode === 'walked') writeLine(io.stdout, `  walked, not watched: ${watch.reason ?? 'no watcher'}${defects}`);
  else writeLine(io.stdout, `  watched (each checkpoint waits for the watcher to catch up${verified}${defects})`);
  if (watch.mode === 'watched' && watch.reason !== undefined) writeLine(io.stdout, `  ${watch.reason}`);
  for (const walked of watch.walkedPaths)
    writeLine(io.stdout, `  walked at every checkpoint: ${escapeControls(walked.path)}/ (${walked.reason})`);
}

/**
 * What retention will do and did to a directory: the checkpoints its next checkpoint would cut (a
 * lowered checkpoints.maxSnapshots, said before it applies) and those waiting in the dropped area.
 */
export function retentionLines(directory: StatusView['directories'][number], status: StatusView): string[] {
  const lines: string[] = [];
  const days = status.retention.keepDroppedDays ?? 7;
  const wouldDrop = directory.wouldDrop ?? 0;
  if (wouldDrop > 0)
    lines.push(
      `  ! the next checkpoint will drop ${wouldDrop} old checkpoint(s): checkpoints.maxSnapshots is ${status.retention.maxSnapshots}. They stay restorable for ${days} day(s) in the recently dropped area; raise maxSnapshots in config.json to keep them on the timeline.`,
    );
  const dropped = directory.dropped ?? 0;
  if (dropped > 0)
    lines.push(
      `  ${dropped} recently dropped checkpoint(s), restorable: vigil checkpoints list ${directory.dir} --dropped`,
    );
  return lines;
}
