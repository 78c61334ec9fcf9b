import type { AppErrorData } from '../../shared/errors';
import { errorDetailLines, guidanceFor } from '../model/error-guidance';
import { escapeControls } from '../../shared/text/control-characters';

/**
 * An error as the user sees it: a headline for its code, the core's own message (which names the
 * problem), the way forward, the details that help (a backup path, the field), and actions.
 */
export function ErrorNotice({
  error,
  onRetry,
  onDismiss,
  testId = 'error-notice',
}: {
  readonly error: AppErrorData;
  readonly onRetry?: () => void;
  readonly onDismiss?: () => void;
  readonly testId?: string;
}) {
  const guidance = guidanceFor(error.code);
  const details = errorDetailLines(error);
  return (
    <div className="error-notice" role="alert" data-testid={testId} data-code={error.code}>
      <div className="error-notice-title">{guidance.title}</div>
      <div className="error-notice-message">{escapeControls(error.message, { keepLineBreaks: true })}</div>
      <div className="error-notice-remedy">{guidance.remedy}</div>
      {details.length > 0 && (
        <dl className="error-notice-details">
          {details.map((line) => (
            <div key={line.label}>
              <dt>{line.label}</dt>
              <dd>
                <code>{escapeControls(line.value)}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {(onRetry !== undefined || onDismiss !== undefined) && (
        <div className="error-notice-actions">
          {onRetry !== undefined && guidance.isRetryable && (
            <button type="button" className="button" onClick={onRetry}>
              Try again
            </button>
          )}
          {onDismiss !== undefined && (
            <button type="button" className="button button-quiet" onClick={onDismiss}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </div>
  );
}
