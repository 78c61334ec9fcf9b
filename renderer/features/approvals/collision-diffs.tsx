import type { ApprovalCollision } from '../../../shared/contract/approvals-contract';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { escapeControls } from '../../../shared/text/control-characters';

/** The kind of one line of a unified diff, for its colour. */
function lineKind(line: string): 'added' | 'removed' | 'hunk' | 'context' {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

/** The lines of a unified diff without its file header (`Index:`, `===`, `---`, `+++`). */
function bodyOf(diff: string): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  const start = lines.findIndex((line) => line.startsWith('@@'));
  return start < 0 ? [] : lines.slice(start);
}

/** One change as a diff, or why it cannot be shown. */
function OneDiff({
  title,
  diff,
  testId,
  missing,
}: {
  readonly title: string;
  readonly diff: string | undefined;
  readonly testId: string;
  readonly missing: string;
}) {
  const lines = diff === undefined ? undefined : bodyOf(diff);
  return (
    <section className="collision-diff" data-testid={testId} aria-label={title}>
      <h4>{title}</h4>
      {lines === undefined ? (
        <p className="subtle">{missing}</p>
      ) : lines.length === 0 ? (
        <p className="subtle">No change to the text.</p>
      ) : (
        <pre className="collision-diff-lines">
          {lines.map((line, index) => (
            <span key={index} className={`collision-diff-line diff-${lineKind(line)}`} data-kind={lineKind(line)}>
              {escapeControls(maskSecretValues(line))}
            </span>
          ))}
        </pre>
      )}
    </section>
  );
}

/** A collision's two changes side by side: the other session's change of the file, and what this call would do to it. */
export function CollisionDiffs({ collision }: { readonly collision: ApprovalCollision }) {
  return (
    <div className="collision-diffs" data-testid="collision-diffs">
      <OneDiff
        title={`${collision.otherLabel}’s change to ${collision.displayPath}`}
        diff={collision.theirs}
        testId="collision-theirs"
        missing="Its earlier version is not stored (no checkpoint of that turn holds it), so only this call’s change is shown."
      />
      <OneDiff
        title={`What ${collision.label} would change`}
        diff={collision.proposed}
        testId="collision-proposed"
        missing="This call’s result cannot be worked out before it runs (the file is too large, or the edit does not apply)."
      />
    </div>
  );
}
