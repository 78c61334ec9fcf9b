import type { MemoryFileView } from '../../shared/contract/memory-contract';
import type { LoadState } from '../model/load-state';
import { codePointLength, formatRelativeTime } from '../model/format';
import { DriftBanner } from './drift-banner';
import { EntryDiffView } from './entry-diff';
import { ErrorNotice } from './error-notice';
import { UsageBar } from './usage-bar';
import { escapeControls } from '../../shared/text/control-characters';

/**
 * One memory file (MEMORY.md or USER.md): usage against its limit, its entries, the last edit made
 * outside Vigil with its diff, and the drift banner when it needs adopting.
 */
export function MemoryFileCard({
  name,
  testId,
  load,
  view,
  backupPath,
  now,
  onAdopt,
  onKeepAppended,
  onShowHistory,
  onRetry,
}: {
  readonly name: string;
  readonly testId: string;
  readonly load: LoadState;
  readonly view: MemoryFileView | undefined;
  readonly backupPath: string | undefined;
  readonly now: number;
  /** Opens the adoption dialog: for a drifted file from its banner, for any other to edit its entries. */
  readonly onAdopt: () => void;
  readonly onKeepAppended: () => void;
  readonly onShowHistory: () => void;
  readonly onRetry: () => void;
}) {
  const recent = view?.lastExternalChange ?? null;
  const added = new Set(recent?.diff.added ?? []);
  return (
    <section
      className="memory-file"
      data-testid={testId}
      data-state={view === undefined ? load.kind : view.drift.isDrifted ? 'drifted' : 'ok'}
      data-entries={view?.entries.length}
      aria-label={name}
    >
      <header className="memory-file-head">
        <h3 title={view?.file}>{name}</h3>
        <span className="spacer" />
        {view?.exists === true && !view.drift.isDrifted && view.entries.length > 0 && (
          <button
            type="button"
            className="link-button"
            data-testid="edit-entries"
            onClick={onAdopt}
            title="Edit, split or merge the entries by hand; the original is kept as a backup"
          >
            Edit entries…
          </button>
        )}
        <button
          type="button"
          className="link-button"
          onClick={onShowHistory}
          title="Every version of this directory, on its timeline"
        >
          History
        </button>
      </header>
      {load.kind === 'failed' && <ErrorNotice error={load.error} onRetry={onRetry} />}
      {view !== undefined && (
        <>
          <UsageBar chars={view.usage.chars} limit={view.usage.limit} testId={`${testId}-usage`} />
          {view.drift.isDrifted && (
            <DriftBanner
              fileName={name}
              drift={view.drift}
              backupPath={backupPath}
              text={view.text}
              isTextTruncated={view.isTextTruncated}
              onAdopt={onAdopt}
            />
          )}
          {view.appended !== null && (
            <div className="memory-appended" role="status" data-testid={`${testId}-appended`}>
              <span>
                Added outside Vigil to the end of the last entry: <q className="mono">{view.appended.appended}</q>.
                Hermes reads it as part of that entry.
              </span>
              <button
                type="button"
                className="button button-small"
                data-testid="keep-appended"
                onClick={onKeepAppended}
              >
                Keep as a new entry
              </button>
            </div>
          )}
          {recent !== null && (
            <details
              className="memory-external"
              open={Date.parse(recent.at) > now - 5 * 60_000}
              data-testid={`${testId}-external`}
            >
              <summary>
                Edited outside Vigil <time dateTime={recent.at}>{formatRelativeTime(recent.at, now)}</time>
              </summary>
              <EntryDiffView diff={recent.diff} />
            </details>
          )}
          {!view.exists ? (
            <p className="muted">No {name} yet. Agents create it with their first memory write.</p>
          ) : view.entries.length === 0 ? (
            <p className="muted">{name} is empty.</p>
          ) : (
            <ol className="memory-entries">
              {view.entries.map((entry, index) => (
                <li
                  key={`${index}:${entry}`}
                  className="memory-entry"
                  data-testid="memory-entry"
                  data-new={added.has(entry) ? 'true' : undefined}
                >
                  <span className="entry-text">{escapeControls(entry, { keepLineBreaks: true })}</span>
                  <span className="entry-size subtle">{codePointLength(entry)}</span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
