import { StackedDiff } from './stacked-diff';
import type { SkippedFile } from '../../model/stacked-rows';
import type { DiffFile } from '../../stores/checkpoint-slice';
import { useAppStore } from '../../stores/store-context';

/**
 * The diffs beside the file tree: the file under the cursor, or (in "All files") every changed
 * file stacked, with the paths the checkpoint did not store; lines can be picked (pointer or
 * keyboard) and restored from the open checkpoint into the live file, whatever it is compared with. `comparison` names the two sides, so a new comparison starts a fresh view.
 */
export function DetailDiff({
  files,
  byPath,
  skipped,
  comparison,
  canPickLines,
  lineSource,
  onRestoreFile,
  onHistory,
}: {
  readonly files: readonly DiffFile[];
  readonly byPath: ReadonlyMap<string, DiffFile>;
  readonly skipped: readonly SkippedFile[];
  readonly comparison: string;
  readonly canPickLines: boolean;
  /** The checkpoint picked lines come from, when the comparison is not with the live directory. */
  readonly lineSource: string | undefined;
  readonly onRestoreFile: (path: string) => void;
  readonly onHistory: (path: string) => void;
}) {
  const fileDiffs = useAppStore((state) => state.fileDiffs);
  const focusedFile = useAppStore((state) => state.focusedFile);
  const diffMode = useAppStore((state) => state.diffMode);
  const lineSelection = useAppStore((state) => state.lineSelection);
  const changeLineSelection = useAppStore((state) => state.changeLineSelection);
  const loadFileDiffs = useAppStore((state) => state.loadFileDiffs);
  const planRestoreLines = useAppStore((state) => state.planRestoreLines);
  const focused = focusedFile === undefined ? undefined : byPath.get(focusedFile);
  const shownFiles = diffMode === 'all' ? files : focused === undefined ? [] : [focused];
  return (
    <div className="detail-diff">
      {shownFiles.length === 0 && files.length > 0 && <p className="muted">Click a file to see its diff.</p>}
      {shownFiles.length > 0 && (
        <StackedDiff
          key={`${comparison}:${diffMode}`}
          files={shownFiles}
          diffs={fileDiffs}
          skipped={diffMode === 'all' ? skipped : []}
          focusPath={diffMode === 'all' ? focusedFile : undefined}
          lineSelection={lineSelection}
          canPickLines={canPickLines}
          lineSource={lineSource}
          onLineSelectionChange={changeLineSelection}
          onVisibleFiles={(paths) => void loadFileDiffs(paths)}
          onRestoreLines={() => void planRestoreLines()}
          actions={{ onRestoreFile, onHistory }}
        />
      )}
    </div>
  );
}
