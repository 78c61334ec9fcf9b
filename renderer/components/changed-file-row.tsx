import { memo } from 'react';
import { escapeControls } from '../../shared/text/control-characters';

/** A changed file as the detail lists it. */
export interface ChangedFileView {
  readonly path: string;
  readonly status: string;
  readonly kind: string;
  readonly additions: number;
  readonly deletions: number;
}

const statusLetters: Readonly<Record<string, string>> = { added: 'A', modified: 'M', deleted: 'D', 'type-changed': 'T' };

/** One row of the changed-file list: a tick when selected, the status, the path (folder dimmed), the line counts. */
export const ChangedFileRow = memo(function ChangedFileRow({ file, isSelected }: { readonly file: ChangedFileView; readonly isSelected: boolean }) {
  const slash = file.path.lastIndexOf('/');
  return (
    <div className="file-row" data-testid="changed-file" data-path={file.path} data-selected={isSelected ? 'true' : 'false'}>
      <span className="file-tick" aria-hidden="true">
        {isSelected ? '✓' : ''}
      </span>
      <span className="file-status" data-kind={file.status} title={file.status}>
        {statusLetters[file.status] ?? '?'}
      </span>
      <span className="file-path mono" title={escapeControls(file.path)}>
        {slash !== -1 && <span className="file-dir">{escapeControls(file.path.slice(0, slash + 1))}</span>}
        {escapeControls(file.path.slice(slash + 1))}
      </span>
      {file.kind === 'text' ? (
        <span className="file-counts">
          <span className="stat-added">+{file.additions}</span> <span className="stat-removed">−{file.deletions}</span>
        </span>
      ) : (
        <span className="file-counts subtle">{file.kind}</span>
      )}
    </div>
  );
});
