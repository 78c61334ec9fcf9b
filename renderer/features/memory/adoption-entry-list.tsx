import { useRef } from 'react';
import { editEntry, mergeWithNext, removeEntry, splitEntryAt, splitEntryLines } from '../../model/adoption-entries';
import { codePointLength } from '../../model/format';

/** How an entry list is edited: the new list from the old one. */
export type EntriesEdit = (entries: readonly string[]) => readonly string[];

/** One entry being adopted: its text to edit, and split, line-by-line split, merge and remove. */
function EntryEditor({
  index,
  entry,
  isLast,
  isDisabled,
  onEdit,
}: {
  readonly index: number;
  readonly entry: string;
  readonly isLast: boolean;
  readonly isDisabled: boolean;
  readonly onEdit: (edit: EntriesEdit) => void;
}) {
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  const lines = entry.split('\n').length;
  return (
    <li className="adoption-entry" data-testid="adoption-entry">
      <textarea
        ref={textRef}
        className="adoption-entry-text"
        aria-label={`Entry ${index + 1}`}
        data-testid="adoption-entry-text"
        value={entry}
        rows={Math.min(8, Math.max(1, lines))}
        disabled={isDisabled}
        onChange={(event) => onEdit((entries) => editEntry(entries, index, event.target.value))}
      />
      <div className="adoption-entry-actions">
        <span className="entry-size subtle">{codePointLength(entry.trim())}</span>
        <button
          type="button"
          className="link-button"
          data-testid="adoption-split"
          disabled={isDisabled}
          title="Split this entry in two where the cursor is"
          onClick={() =>
            onEdit((entries) => splitEntryAt(entries, index, textRef.current?.selectionStart ?? entry.length))
          }
        >
          Split at cursor
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="adoption-split-lines"
          disabled={isDisabled || lines < 2}
          onClick={() => onEdit((entries) => splitEntryLines(entries, index))}
        >
          One per line
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="adoption-merge"
          disabled={isDisabled || isLast}
          onClick={() => onEdit((entries) => mergeWithNext(entries, index))}
        >
          Merge with next
        </button>
        <button
          type="button"
          className="link-button"
          data-testid="adoption-remove"
          disabled={isDisabled}
          onClick={() => onEdit((entries) => removeEntry(entries, index))}
        >
          Remove
        </button>
      </div>
    </li>
  );
}

/** The entries an adoption will write, each editable, with split, merge and remove by hand. */
export function AdoptionEntryList({
  entries,
  isDisabled,
  onEdit,
}: {
  readonly entries: readonly string[];
  readonly isDisabled: boolean;
  readonly onEdit: (edit: EntriesEdit) => void;
}) {
  return (
    <ol className="adoption-entries" data-testid="adoption-entries">
      {entries.map((entry, index) => (
        // Keyed by position: an edit changes the text, and the textarea must keep its focus.
        <EntryEditor
          key={index}
          index={index}
          entry={entry}
          isLast={index === entries.length - 1}
          isDisabled={isDisabled}
          onEdit={onEdit}
        />
      ))}
    </ol>
  );
}
