import type { MouseEvent } from 'react';

/** What a timeline row offers without opening it first. */
export interface RowActionFacts {
  readonly kind: string;
  readonly source?: string | undefined;
  readonly attribution: { readonly sessionId?: string | undefined; readonly turn?: number | undefined };
}

/** Whether a checkpoint was taken for a session's turn, so that turn can be rewound from it. */
export function isTurnCheckpoint(entry: RowActionFacts): boolean {
  return (
    entry.kind === 'checkpoint' &&
    entry.source !== 'hermes' &&
    entry.attribution.sessionId !== undefined &&
    entry.attribution.turn !== undefined &&
    entry.attribution.turn > 0
  );
}

/**
 * A timeline row's own actions: "Restore…" (every file back to this checkpoint: one click, then the
 * plan), and for a checkpoint taken for a turn, "Rewind turn N…" (code, conversation or both).
 */
export function CheckpointRowActions({
  entry,
  onRestoreAll,
  onRewind,
}: {
  readonly entry: RowActionFacts;
  readonly onRestoreAll: () => void;
  readonly onRewind: () => void;
}) {
  const act = (run: () => void) => (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    run();
  };
  return (
    <span className="row-actions">
      <button
        type="button"
        className="button button-small"
        data-testid="row-restore"
        title="Restore every file to this checkpoint; shows the plan first"
        onClick={act(onRestoreAll)}
      >
        Restore…
      </button>
      {isTurnCheckpoint(entry) && (
        <button
          type="button"
          className="button button-small"
          data-testid="row-rewind"
          title="Rewind the session to the start of this turn: code, conversation or both; shows the plan first"
          onClick={act(onRewind)}
        >
          Rewind turn {entry.attribution.turn}…
        </button>
      )}
    </span>
  );
}
