import type { DroppedCheckpointData } from '../../../shared/contract/checkpoints-live-contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { ErrorNotice } from '../../components/error-notice';
import { useAppStore } from '../../stores/store-context';

function when(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** "dropped on DATE by retention", with until when it stays or when it left. */
export function droppedText(
  entry: Pick<DroppedCheckpointData, 'droppedAt' | 'droppedBy' | 'expiresAt' | 'expiredAt'>,
): string {
  const dropped = `dropped on ${when(entry.droppedAt)} by ${entry.droppedBy}`;
  return entry.expiredAt === undefined
    ? `${dropped}; restorable until ${when(entry.expiresAt)}`
    : `${dropped}; expired on ${when(entry.expiredAt)}, its content is gone`;
}

/**
 * The timeline's "Recently dropped" section: what retention, the size cap or a prune took off the
 * timeline, d1 = newest, each restorable (through the same restore plan) until it expires.
 */
export function DroppedSection({ dir }: { readonly dir: string }) {
  const dropped = useAppStore((state) => (state.dropped?.dir === dir ? state.dropped : undefined));
  const loadDropped = useAppStore((state) => state.loadDropped);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  if (dropped === undefined || (dropped.entries.length === 0 && dropped.error === undefined)) return null;
  return (
    <section className="dropped-section" data-testid="dropped-section" data-count={dropped.entries.length}>
      <h3 className="dropped-title">
        Recently dropped <span className="muted">({dropped.entries.length})</span>
        {dropped.keepDroppedDays !== undefined && (
          <span className="subtle"> · kept {dropped.keepDroppedDays} days (checkpoints.keepDroppedDays)</span>
        )}
      </h3>
      {dropped.error !== undefined && <ErrorNotice error={dropped.error} onRetry={() => void loadDropped(dir)} />}
      <ul>
        {dropped.entries.map((entry) => (
          <li
            key={entry.id}
            data-testid="dropped-entry"
            data-id={entry.id}
            data-state={entry.expiredAt === undefined ? 'restorable' : 'expired'}
          >
            <span className="dropped-number">d{entry.number}</span>
            <span className="mono">{entry.id.slice(0, 8)}</span>
            <span>{escapeControls(entry.reason)}</span>
            <span className="muted">{when(entry.time)}</span>
            <span className="subtle">{droppedText(entry)}</span>
            {entry.expiredAt === undefined && (
              <button type="button" data-testid="dropped-restore" onClick={() => void planRestoreOf(dir, entry.id, [])}>
                Restore…
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
