import { memo } from 'react';
import { escapeControls } from '../../../shared/text/control-characters';
import type { StackedRow } from '../../model/stacked-rows';

const statusWords: Readonly<Record<string, string>> = {
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
  'type-changed': 'type changed',
};

/** What a file header offers. */
export interface FileHeaderActions {
  readonly onRestoreFile?: ((path: string) => void) | undefined;
  readonly onHistory?: ((path: string) => void) | undefined;
  readonly onToggleHunk?: ((path: string, hunk: number) => void) | undefined;
}

function FileHeader({
  row,
  actions,
}: {
  readonly row: Extract<StackedRow, { kind: 'file' }>;
  readonly actions: FileHeaderActions;
}) {
  const { file } = row;
  return (
    <div className="stacked-file" data-testid="stacked-file" data-path={row.path}>
      <span className="diff-path" title={escapeControls(row.path)}>
        {escapeControls(row.path)}
      </span>
      <span className="badge" data-kind={file.status}>
        {statusWords[file.status] ?? file.status}
      </span>
      {file.kind === 'text' && (
        <span className="diff-stats">
          <span className="stat-added">+{file.additions}</span> <span className="stat-removed">−{file.deletions}</span>
        </span>
      )}
      <span className="spacer" />
      {actions.onHistory !== undefined && (
        <button
          type="button"
          className="button button-quiet button-small"
          data-testid="stacked-history"
          title="History of this file: every checkpoint after which it changed"
          onClick={() => actions.onHistory?.(row.path)}
        >
          History
        </button>
      )}
      {actions.onRestoreFile !== undefined && (
        <button
          type="button"
          className="button button-small"
          data-testid="stacked-restore-file"
          title="Restore this file to the checkpoint; shows the plan first"
          onClick={() => actions.onRestoreFile?.(row.path)}
        >
          Restore file…
        </button>
      )}
    </div>
  );
}

function LineRow({
  row,
  isPicked,
}: {
  readonly row: Extract<StackedRow, { kind: 'line' }>;
  readonly isPicked: boolean;
}) {
  const line = row.row;
  const text = 'text' in line ? escapeControls(line.text, { keepLineBreaks: true }) : '';
  const oldNumber = line.kind === 'context' || line.kind === 'removed' ? line.oldNumber : undefined;
  const newNumber = line.kind === 'context' || line.kind === 'added' ? line.newNumber : undefined;
  const sign = line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : line.kind === 'note' ? '' : ' ';
  return (
    <div
      className={`diff-row diff-${line.kind}`}
      data-testid="diff-line"
      data-path={row.path}
      data-key={row.key}
      data-picked={isPicked ? 'true' : undefined}
    >
      <span className="diff-number">{oldNumber}</span>
      <span className="diff-number">{newNumber}</span>
      <span className="diff-text">
        {sign}
        {text}
      </span>
    </div>
  );
}

/** One side of an image change: the picture (a `data:` URL from the core), or why there is none. */
function ImageSide({
  label,
  url,
  testId,
}: {
  readonly label: string;
  readonly url?: string | undefined;
  readonly testId: string;
}) {
  return (
    <figure className="stacked-image" data-testid={testId}>
      {url === undefined ? <span className="stacked-image-none">none</span> : <img src={url} alt={label} />}
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** One row of the stacked diff: a file's header, a hunk's header (with "pick this hunk"), a line, a notice. */
export const StackedDiffRow = memo(function StackedDiffRow({
  row,
  isPicked,
  canPickLines,
  actions,
}: {
  readonly row: StackedRow;
  readonly isPicked: boolean;
  readonly canPickLines: boolean;
  readonly actions: FileHeaderActions;
}) {
  switch (row.kind) {
    case 'file':
      return <FileHeader row={row} actions={actions} />;
    case 'line':
      return <LineRow row={row} isPicked={isPicked} />;
    case 'hunk':
      return (
        <div className="diff-row diff-hunk stacked-hunk">
          <span className="diff-number" />
          <span className="diff-number" />
          <span className="diff-text">
            {row.text}
            {canPickLines && actions.onToggleHunk !== undefined && (
              <button
                type="button"
                className="link-button stacked-pick-hunk"
                data-testid="pick-hunk"
                onClick={() => actions.onToggleHunk?.(row.path, row.hunk)}
              >
                pick this hunk
              </button>
            )}
          </span>
        </div>
      );
    case 'images':
      return (
        <div className="stacked-images" data-testid="stacked-images" data-path={row.path}>
          <ImageSide label="Before (checkpoint)" url={row.old} testId="image-before" />
          <ImageSide label="After" url={row.new} testId="image-after" />
        </div>
      );
    case 'notice':
      return (
        <p className="stacked-notice" data-testid="stacked-notice" data-path={row.path} data-tone={row.tone}>
          {row.text}
        </p>
      );
    case 'more':
      return (
        <p className="stacked-notice">
          {row.omitted.toLocaleString('en-US')} more diff lines are not shown: restore the whole file, or see it with
          "vigil checkpoints diff".
        </p>
      );
    case 'skipped':
      return (
        <p className="stacked-notice stacked-skipped" data-testid="stacked-skipped" data-path={row.path}>
          <span className="mono">{escapeControls(row.path)}</span> — {row.reason}
        </p>
      );
    case 'gap':
      return <div className="stacked-gap" aria-hidden="true" />;
  }
});
