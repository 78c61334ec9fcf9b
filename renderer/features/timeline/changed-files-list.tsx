import { ChangedFileRow, ChangedFolderRow } from './changed-file-row';
import { SelectableList } from './selectable-list';
import { filterCount } from '../../model/file-filter';
import type { FileTreeRow } from '../../model/file-tree';
import type { DiffFile } from '../../stores/checkpoint-slice';
import { useAppStore } from '../../stores/store-context';

/**
 * The changed files as a tree: a click shows a file's diff, a checkbox (or a drag, Shift, Ctrl)
 * selects files for restore, a folder's checkbox all of its files; each file row restores the file
 * or shows its history.
 */
export function ChangedFilesList({
  tree,
  groups,
  byPath,
  onRestoreFile,
  onHistory,
}: {
  readonly tree: readonly FileTreeRow[];
  readonly groups: ReadonlyMap<string, readonly string[]>;
  readonly byPath: ReadonlyMap<string, DiffFile>;
  readonly onRestoreFile: (path: string) => void;
  readonly onHistory: (path: string) => void;
}) {
  const selection = useAppStore((state) => state.fileSelection);
  const changeFileSelection = useAppStore((state) => state.changeFileSelection);
  const showFileDiff = useAppStore((state) => state.showFileDiff);
  return (
    <SelectableList
      keys={tree.map((row) => row.key)}
      groups={groups}
      selection={selection}
      onSelectionChange={changeFileSelection}
      onActivate={(path) => void showFileDiff(path)}
      rowHeight={26}
      label="Changed files"
      testId="changed-files"
      renderRow={(row) => {
        const item = tree[row.index];
        if (item === undefined) return null;
        if (item.kind === 'folder') {
          const count = item.files.filter((path) => selection.selected.has(path)).length;
          return (
            <ChangedFolderRow
              name={item.name}
              depth={item.depth}
              count={item.files.length}
              check={count === 0 ? 'unchecked' : count === item.files.length ? 'checked' : 'mixed'}
            />
          );
        }
        const file = byPath.get(item.key);
        return file === undefined ? null : (
          <ChangedFileRow
            file={file}
            name={item.name}
            depth={item.depth}
            isSelected={row.isSelected}
            onRestore={onRestoreFile}
            onHistory={onHistory}
          />
        );
      }}
    />
  );
}

/** The filter over the changed files: a path substring, and how many files it lets through of how many. */
export function ChangedFilesFilter({
  value,
  shown,
  total,
  hiddenSelected,
  onChange,
}: {
  readonly value: string;
  readonly shown: number;
  readonly total: number;
  /** Files selected for restore that the filter hides: "Restore selected" still restores them, so it is said. */
  readonly hiddenSelected: number;
  readonly onChange: (value: string) => void;
}) {
  const isFiltering = value.trim() !== '';
  return (
    <div className="changed-files-filter">
      <input
        type="search"
        className="input input-small"
        data-testid="changed-files-filter"
        aria-label="Filter the changed files by path"
        aria-describedby="changed-files-count"
        placeholder="Filter by path"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          // Esc empties the filter first; pressed again on an empty filter it is the app's (close a panel).
          if (event.key === 'Escape' && value !== '') {
            event.stopPropagation();
            onChange('');
          }
        }}
      />
      <span id="changed-files-count" className="subtle" data-testid="changed-files-count" aria-live="polite">
        {filterCount(shown, total, isFiltering)}
        {hiddenSelected > 0 && ` · ${hiddenSelected} selected not shown`}
      </span>
      {isFiltering && shown === 0 && <span className="subtle">No changed file matches.</span>}
    </div>
  );
}
