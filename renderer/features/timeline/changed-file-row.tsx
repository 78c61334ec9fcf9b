import { memo } from 'react';
import { escapeControls } from '../../../shared/text/control-characters';
import { fileChangeNote, type ChangedFileFacts } from '../../model/file-change-note';

/** A changed file as the detail lists it. */
export interface ChangedFileView extends ChangedFileFacts {
  readonly path: string;
}

/** Whether a row's checkbox is ticked: all, none, or (a folder) some of its files. */
export type CheckState = 'checked' | 'unchecked' | 'mixed';

const statusLetters: Readonly<Record<string, string>> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  'type-changed': 'T',
};

/** The tick a pointer clicks; assistive technology reads the same state from the row's `aria-selected` instead (a checkbox may not sit inside a grid's row with buttons). */
function Checkbox({ state, label }: { readonly state: CheckState; readonly label: string }) {
  return (
    <span
      className="file-check"
      data-role="check"
      data-state={state}
      aria-hidden="true"
      title={label}
      data-testid="file-check"
    >
      {state === 'checked' ? '✓' : state === 'mixed' ? '–' : ''}
    </span>
  );
}

/** A folder of the changed-file tree: its checkbox ticks every file under it. */
export const ChangedFolderRow = memo(function ChangedFolderRow({
  name,
  depth,
  check,
  count,
}: {
  readonly name: string;
  readonly depth: number;
  readonly check: CheckState;
  readonly count: number;
}) {
  return (
    <div
      role="gridcell"
      className="file-row file-folder"
      data-testid="changed-folder"
      data-folder={name}
      style={{ paddingLeft: 4 + depth * 14 }}
    >
      <Checkbox state={check} label={`Select the ${count} changed files in ${escapeControls(name)}`} />
      <span className="file-folder-icon" aria-hidden="true">
        ▾
      </span>
      <span className="file-path mono" title={escapeControls(name)}>
        {escapeControls(name)}
      </span>
      <span className="file-counts subtle">{count}</span>
    </div>
  );
});

/**
 * One changed file in the tree: its checkbox (selects it for restore), the status, the name, what
 * changed (lines, or in words a mode or a link's target), and its own actions: restore this file,
 * its history. A click elsewhere on the row shows its diff.
 */
export const ChangedFileRow = memo(function ChangedFileRow({
  file,
  name,
  depth,
  isSelected,
  onRestore,
  onHistory,
}: {
  readonly file: ChangedFileView;
  /** The name shown (the file's name in the tree; its whole path in a flat list). */
  readonly name: string;
  readonly depth: number;
  readonly isSelected: boolean;
  readonly onRestore?: ((path: string) => void) | undefined;
  readonly onHistory?: ((path: string) => void) | undefined;
}) {
  const note = fileChangeNote(file);
  const slash = name.lastIndexOf('/');
  return (
    <div
      role="gridcell"
      className="file-row"
      data-testid="changed-file"
      data-path={file.path}
      data-selected={isSelected ? 'true' : 'false'}
      style={{ paddingLeft: 4 + depth * 14 }}
    >
      <Checkbox
        state={isSelected ? 'checked' : 'unchecked'}
        label={`Select ${escapeControls(file.path)} for restore`}
      />
      <span className="file-status" data-kind={file.status} title={file.status}>
        {statusLetters[file.status] ?? '?'}
      </span>
      <span className="file-path mono" title={escapeControls(file.path)}>
        {slash !== -1 && <span className="file-dir">{escapeControls(name.slice(0, slash + 1))}</span>}
        {escapeControls(name.slice(slash + 1))}
      </span>
      {note !== undefined && (file.kind !== 'text' || file.additions + file.deletions === 0) ? (
        <span className="file-counts file-note" data-testid="file-note" title={note}>
          {note}
        </span>
      ) : file.kind === 'text' ? (
        <span className="file-counts">
          <span className="stat-added">+{file.additions}</span> <span className="stat-removed">−{file.deletions}</span>
        </span>
      ) : (
        <span className="file-counts subtle">{note ?? file.kind}</span>
      )}
      <span className="file-actions">
        {onHistory !== undefined && (
          <button
            type="button"
            className="icon-button"
            data-testid="file-history"
            title={`History of ${escapeControls(file.path)}`}
            aria-label={`History of ${escapeControls(file.path)}`}
            onClick={() => onHistory(file.path)}
          >
            ◷
          </button>
        )}
        {onRestore !== undefined && (
          <button
            type="button"
            className="icon-button"
            data-testid="restore-file"
            title={`Restore this file (${escapeControls(file.path)}); shows the plan first`}
            aria-label={`Restore ${escapeControls(file.path)}`}
            onClick={() => onRestore(file.path)}
          >
            ↶
          </button>
        )}
      </span>
    </div>
  );
});
