import { useState } from 'react';
import type { DriftReport } from '../../../shared/contract/memory-contract';
import { escapeControls } from '../../../shared/text/control-characters';

/**
 * A memory file that is not in the shape the memory tool writes: agents' writes to it are refused
 * (nothing is lost), and the way out is to adopt it. Shows why, the backup Vigil kept, and the text.
 */
export function DriftBanner({
  fileName,
  drift,
  backupPath,
  text,
  isTextTruncated,
  onAdopt,
}: {
  readonly fileName: string;
  readonly drift: DriftReport;
  readonly backupPath: string | undefined;
  readonly text: string;
  readonly isTextTruncated: boolean;
  readonly onAdopt: () => void;
}) {
  const [isTextShown, setTextShown] = useState(false);
  return (
    <div className="drift-banner" role="alert" data-testid="drift-banner">
      <div className="drift-title">{fileName} was edited into a shape agents cannot safely update</div>
      <ul className="drift-reasons">
        {drift.reasons.map((reason) => (
          <li key={reason.kind + reason.message}>{reason.message}</li>
        ))}
      </ul>
      <p className="drift-help">
        Agents’ changes to its entries are refused until it is adopted, so nothing in it is lost (adding an entry still
        works, as in Hermes). Adopting splits the text into entries you edit and confirm; the original is kept as a
        backup.
      </p>
      {backupPath !== undefined && (
        <p className="drift-backup">
          Backup: <code data-testid="drift-backup">{backupPath}</code>
        </p>
      )}
      <div className="drift-actions">
        <button type="button" className="button button-primary" data-testid="adopt-open" onClick={onAdopt}>
          Adopt…
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => setTextShown((shown) => !shown)}
          aria-expanded={isTextShown}
        >
          {isTextShown ? 'Hide the file' : 'Show the file as it is'}
        </button>
      </div>
      {isTextShown && (
        <pre className="drift-text">
          {escapeControls(text, { keepLineBreaks: true })}
          {isTextTruncated ? '\n… (cut at 64 KiB)' : ''}
        </pre>
      )}
    </div>
  );
}
