import type { CallRequest } from '../../shared/contract';
import { sourceRanges } from './checkpoint-line-ranges';
import { toRowSelection, type LineSelection } from './line-selection';
import { stackedRows, type StackedDiffState, type StackedFile } from './stacked-rows';

/** What a line restore asks the core for: the file, which lines, and the live version they were picked on (when known). */
export interface LinesRequest {
  readonly path: string;
  readonly lines: CallRequest<'checkpoints:plan-restore-lines'>['lines'];
  readonly basis: string | undefined;
}

/**
 * Lines picked in the open checkpoint's diff as a restore of that checkpoint's lines into the live
 * file. Against the live directory, the rows themselves (on the live version they were picked
 * on). Against another checkpoint, the live file is neither side: the pick becomes ranges of the
 * open checkpoint's version (its side of the diff: `new` when the other one is older), as the
 * CLI's `--lines A-B` takes them. Undefined when the pick holds no line of that version.
 */
export function linesToRestore(
  compare: { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly isOlder: boolean },
  file: StackedFile,
  diffs: ReadonlyMap<string, StackedDiffState>,
  pick: LineSelection,
): LinesRequest | undefined {
  const state = diffs.get(file.path);
  if (compare.kind === 'live')
    return {
      path: pick.path,
      lines: { kind: 'rows', selection: toRowSelection(pick) },
      basis: state?.diff?.newOid,
    };
  const rows = stackedRows([file], diffs);
  const ranges = sourceRanges(rows, pick.path, pick.keys, compare.isOlder ? 'new' : 'old');
  return ranges.length === 0 ? undefined : { path: pick.path, lines: { kind: 'ranges', ranges }, basis: undefined };
}
