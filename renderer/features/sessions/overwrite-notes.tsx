import type { OverwriteNotice } from '../../../shared/contract/call-collision-contract';
import { overwriteNoticeLine } from '../../../shared/sessions/collision-words';
import { escapeControls } from '../../../shared/text/control-characters';
import { formatClock } from '../../model/format';
import { insideOf, type RestoreTheirs } from './call-collision-notes';

/**
 * On the row of a session's own change: each later call of another session that overwrote it,
 * and a button that restores this session's version from the checkpoint taken before that call.
 */
export function OverwriteNotes({
  notices,
  onRestoreMine,
}: {
  readonly notices: readonly OverwriteNotice[];
  /** Restores one file from a checkpoint (the same single-file restore plan as "Restore their version"). */
  readonly onRestoreMine?: RestoreTheirs | undefined;
}) {
  return (
    <>
      {notices.map((notice) => {
        const held = notice.checkpoint;
        const relative = held === undefined ? undefined : insideOf(held.directory, notice.path);
        return (
          <div
            key={`${notice.path} ${notice.at}`}
            className="transcript-warning"
            data-testid="call-overwritten"
            role="note"
          >
            <span>Overwritten: {escapeControls(overwriteNoticeLine(notice, formatClock(notice.at)))}</span>
            {onRestoreMine !== undefined && held !== undefined && relative !== undefined && (
              <button
                type="button"
                className="button button-quiet button-small"
                data-testid="restore-mine"
                title={`Restore this session's version of ${escapeControls(notice.displayPath)} from the checkpoint taken before ${escapeControls(notice.byLabel)}'s ${escapeControls(notice.byTool)}; shows the plan first`}
                onClick={() => onRestoreMine(held.directory, held.checkpointId, relative)}
              >
                Restore this session’s version
              </button>
            )}
          </div>
        );
      })}
    </>
  );
}

/** On a session's card: its latest changes that other sessions overwrote (open the transcript to restore them). */
export function SessionOverwrites({ notices }: { readonly notices: readonly OverwriteNotice[] | undefined }) {
  if (notices === undefined || notices.length === 0) return null;
  return (
    <ul className="session-warnings" aria-label="Its changes other sessions overwrote, newest first">
      {notices.map((notice) => (
        <li key={`${notice.path} ${notice.at}`} data-testid="session-overwrite" className="session-call-warning">
          {escapeControls(overwriteNoticeLine(notice, formatClock(notice.at)))}
        </li>
      ))}
    </ul>
  );
}
