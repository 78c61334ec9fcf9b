import type { MemoryFileView } from '../../../shared/contract/memory-contract';
import type { LoadState } from '../../model/load-state';
import { codePointLength, formatRelativeTime } from '../../model/format';
import { DriftBanner } from './drift-banner';
import { EntryDiffView } from './entry-diff';
import { ErrorNotice } from '../../components/error-notice';
import { UsageBar } from './usage-bar';
import { escapeControls } from '../../../shared/text/control-characters';

/** The file's name, and links to edit its entries (when it has some and has not drifted) and to its history. */
function MemoryFileHead({
  name,
  view,
  onAdopt,
  onShowHistory,
}: Pick<MemoryFileCardProps, 'name' | 'view' | 'onAdopt' | 'onShowHistory'>) {
  return (
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
  );
}

/** Text added outside Vigil to the end of the last entry, with the offer to keep it as an entry of its own. */
function AppendedNotice({
  testId,
  appended,
  onKeepAppended,
}: Pick<MemoryFileCardProps, 'testId' | 'onKeepAppended'> & { readonly appended: string }) {
  return (
    <div className="memory-appended" role="status" data-testid={`${testId}-appended`}>
      <span>
        Added outside Vigil to the end of the last entry: <q className="mono">{appended}</q>. Hermes reads it as part of
        that entry.
      </span>
      <button type="button" className="button button-small" data-testid="keep-appended" onClick={onKeepAppended}>
        Keep as a new entry
      </button>
    </div>
  );
}

/** The last edit made outside Vigil: its diff, what in it reads like an instruction to the agent, and Reject while the file still holds it. */
function ExternalEdit({
  testId,
  view,
  now,
  onReject,
}: Pick<MemoryFileCardProps, 'testId' | 'now' | 'onReject'> & { readonly view: MemoryFileView }) {
  const edit = view.lastExternalChange;
  if (edit === null) return null;
  const isCurrent = edit.current.sha256 === view.sha256;
  const flagged = edit.flagged ?? [];
  return (
    <details
      className="memory-external"
      open={isCurrent && (flagged.length > 0 || Date.parse(edit.at) > now - 5 * 60_000)}
      data-testid={`${testId}-external`}
      data-current={isCurrent ? 'true' : 'false'}
    >
      <summary>
        Edited outside Vigil <time dateTime={edit.at}>{formatRelativeTime(edit.at, now)}</time>
        {!isCurrent && <span className="subtle"> · no longer what the file holds</span>}
        {isCurrent && flagged.length > 0 && (
          <span className="badge" data-kind="denied">
            reads like an instruction
          </span>
        )}
      </summary>
      {isCurrent && flagged.length > 0 && (
        <ul className="memory-flagged" data-testid={`${testId}-flagged`}>
          {flagged.map((item) => (
            <li key={item.entry}>
              <q className="mono">{escapeControls(item.entry)}</q> — {item.what}. The agent reads it as part of its
              memory; Vigil's memory tool would have refused it.
            </li>
          ))}
        </ul>
      )}
      <EntryDiffView diff={edit.diff} />
      {isCurrent && (
        <button
          type="button"
          className="button button-small"
          data-testid="reject-external"
          onClick={onReject}
          title="Write back the entries from before this edit; the edited text is kept in a backup, and the toast can undo it"
        >
          Reject this edit
        </button>
      )}
    </details>
  );
}

/** The file's entries (those of the last outside edit marked new, those that read like instructions flagged), or why there are none. */
function MemoryEntries({
  name,
  view,
  added,
  flagged,
}: {
  readonly name: string;
  readonly view: MemoryFileView;
  readonly added: ReadonlySet<string>;
  readonly flagged: ReadonlySet<string>;
}) {
  if (!view.exists) return <p className="muted">No {name} yet. Agents create it with their first memory write.</p>;
  if (view.entries.length === 0) return <p className="muted">{name} is empty.</p>;
  return (
    <ol className="memory-entries">
      {view.entries.map((entry, index) => (
        <li
          key={`${index}:${entry}`}
          className="memory-entry"
          data-testid="memory-entry"
          data-new={added.has(entry) ? 'true' : undefined}
          data-flagged={flagged.has(entry) ? 'true' : undefined}
          title={flagged.has(entry) ? 'Reads like an instruction to the agent (see the outside edit above)' : undefined}
        >
          <span className="entry-text">{escapeControls(entry, { keepLineBreaks: true })}</span>
          <span className="entry-size subtle">{codePointLength(entry)}</span>
        </li>
      ))}
    </ol>
  );
}

/** The memory file a card shows and where its actions go. */
export interface MemoryFileCardProps {
  readonly name: string;
  readonly testId: string;
  readonly load: LoadState;
  readonly view: MemoryFileView | undefined;
  readonly backupPath: string | undefined;
  readonly now: number;
  /** Opens the adoption dialog: for a drifted file from its banner, for any other to edit its entries. */
  readonly onAdopt: () => void;
  readonly onKeepAppended: () => void;
  /** Rejects the last outside edit: the entries from before it go back. */
  readonly onReject: () => void;
  readonly onShowHistory: () => void;
  readonly onRetry: () => void;
}

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
  onReject,
  onShowHistory,
  onRetry,
}: MemoryFileCardProps) {
  const recent = view?.lastExternalChange ?? null;
  const isCurrent = recent !== null && recent.current.sha256 === view?.sha256;
  const added = new Set(isCurrent ? recent.diff.added : []);
  const flagged = new Set(isCurrent ? (recent.flagged ?? []).map((item) => item.entry) : []);
  return (
    <section
      className="memory-file"
      data-testid={testId}
      data-state={view === undefined ? load.kind : view.drift.isDrifted ? 'drifted' : 'ok'}
      data-entries={view?.entries.length}
      aria-label={name}
    >
      <MemoryFileHead name={name} view={view} onAdopt={onAdopt} onShowHistory={onShowHistory} />
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
            <AppendedNotice testId={testId} appended={view.appended.appended} onKeepAppended={onKeepAppended} />
          )}
          <ExternalEdit testId={testId} view={view} now={now} onReject={onReject} />
          <MemoryEntries name={name} view={view} added={added} flagged={flagged} />
        </>
      )}
    </section>
  );
}
