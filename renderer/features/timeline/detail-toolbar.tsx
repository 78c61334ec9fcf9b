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

type CompareChoice = readonly [key: string, label: string, target: CompareTarget | undefined];

/** The compare targets the toolbar offers: the live directory and the neighbours on the timeline (if there are any). */
function compareChoicesOf(newer: string | undefined, older: string | undefined): readonly CompareChoice[] {
  return [
    ['live', 'Live directory', { kind: 'live' }],
    ['newer', 'Next checkpoint', newer === undefined ? undefined : { kind: 'checkpoint', id: newer, isOlder: false }],
    [
      'older',
      'Previous checkpoint',
      older === undefined ? undefined : { kind: 'checkpoint', id: older, isOlder: true },
    ],
  ];
}

/** Which of those choices the current comparison is, or 'other' (a checkpoint picked with Alt+click). */
function currentChoiceOf(compare: CompareTarget, newer: string | undefined, older: string | undefined): string {
  return compare.kind === 'live' ? 'live' : compare.id === newer ? 'newer' : compare.id === older ? 'older' : 'other';
}

/** Pins or unpins the checkpoint (Hermes Agent's are read only). */
function PinToggle({ entry }: { readonly entry: TimelineEntry }) {
  const pinCheckpoint = useAppStore((state) => state.pinCheckpoint);
  const isPinned = entry.isPinned === true;
  return (
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
  );
}

/** What the open checkpoint is compared with, how its diffs are shown, and its pin. */
export function DetailToolbar({ entry, newer, older }: OpenCheckpointProps) {
  const detail = useAppStore((state) => state.detail);
  const diffMode = useAppStore((state) => state.diffMode);
  const compareWith = useAppStore((state) => state.compareWith);
  const refreshDetail = useAppStore((state) => state.refreshDetail);
  const setDiffMode = useAppStore((state) => state.setDiffMode);
  if (detail === undefined) return null;
  const currentChoice = currentChoiceOf(detail.compare, newer, older);
  return (
    <div className="detail-toolbar">
      <span className="muted">Compare with</span>
      <div className="segmented" role="group" aria-label="Compare with">
        {compareChoicesOf(newer, older).map(([key, label, target]) => (
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
      <PinToggle entry={entry} />
    </div>
  );
}
