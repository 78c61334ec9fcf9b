import { shortId } from '../../model/format';
import type { TimelineEntry } from '../../model/timeline-filter';
import type { CompareTarget, DiffMode } from '../../stores/checkpoint-slice';
import { useAppStore } from '../../stores/store-context';

const modes: readonly (readonly [DiffMode, string, string])[] = [
  ['file', 'This file', 'The diff of the file under the cursor'],
  ['all', 'All files', 'Every changed file one under another, like a pull request'],
];

/** The open checkpoint and its neighbours on the timeline (ids), as the detail and its toolbar take them. */
export interface OpenCheckpointProps {
  readonly entry: TimelineEntry;
  readonly newer: string | undefined;
  readonly older: string | undefined;
}

/** What the open checkpoint is compared with, how its diffs are shown, and its pin. */
export function DetailToolbar({ entry, newer, older }: OpenCheckpointProps) {
  const detail = useAppStore((state) => state.detail);
  const diffMode = useAppStore((state) => state.diffMode);
  const compareWith = useAppStore((state) => state.compareWith);
  const refreshDetail = useAppStore((state) => state.refreshDetail);
  const setDiffMode = useAppStore((state) => state.setDiffMode);
  const pinCheckpoint = useAppStore((state) => state.pinCheckpoint);
  if (detail === undefined) return null;
  const isPinned = entry.isPinned === true;
  const compareChoices: readonly (readonly [string, string, CompareTarget | undefined])[] = [
    ['live', 'Live directory', { kind: 'live' }],
    ['newer', 'Next checkpoint', newer === undefined ? undefined : { kind: 'checkpoint', id: newer, isOlder: false }],
    [
      'older',
      'Previous checkpoint',
      older === undefined ? undefined : { kind: 'checkpoint', id: older, isOlder: true },
    ],
  ];
  const currentChoice =
    detail.compare.kind === 'live'
      ? 'live'
      : detail.compare.id === newer
        ? 'newer'
        : detail.compare.id === older
          ? 'older'
          : 'other';
  return (
    <div className="detail-toolbar">
      <span className="muted">Compare with</span>
      <div className="segmented" role="group" aria-label="Compare with">
        {compareChoices.map(([key, label, target]) => (
          <button
            key={key}
            type="button"
            aria-pressed={currentChoice === key}
            disabled={target === undefined}
            data-testid={`compare-${key}`}
            onClick={() => target !== undefined && void compareWith(target)}
          >
            {label}
          </button>
        ))}
        {currentChoice === 'other' && detail.compare.kind === 'checkpoint' && (
          <button type="button" aria-pressed="true">
            {shortId(detail.compare.id)}
          </button>
        )}
      </div>
      <button
        type="button"
        className="button button-quiet button-small"
        onClick={() => void refreshDetail()}
        title="Compare again with the directory as it is now"
      >
        Refresh
      </button>
      <span className="spacer" />
      <div className="segmented" role="group" aria-label="Show">
        {modes.map(([mode, label, title]) => (
          <button
            key={mode}
            type="button"
            aria-pressed={diffMode === mode}
            data-testid={`diff-mode-${mode}`}
            title={title}
            onClick={() => setDiffMode(mode)}
          >
            {label}
          </button>
        ))}
      </div>
      <button
        type="button"
        className="button button-small"
        data-testid="pin-toggle"
        aria-pressed={isPinned}
        disabled={entry.source === 'hermes'}
        onClick={() => void pinCheckpoint(entry.dir, entry.id, !isPinned)}
        title={
          entry.source === 'hermes'
            ? "Hermes Agent's checkpoints are read only"
            : isPinned
              ? 'Unpin: retention and the size cap may drop it again'
              : 'Pin: retention and the size cap never drop it'
        }
      >
        {isPinned ? 'Pinned' : 'Pin'}
      </button>
    </div>
  );
}
