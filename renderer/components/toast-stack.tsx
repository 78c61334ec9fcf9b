import type { Toast } from '../model/toast';
import { escapeControls } from '../../shared/text/control-characters';

/** The stack of toasts in the corner; polite for news, assertive for errors. */
export function ToastStack({
  toasts,
  onAction,
  onDismiss,
}: {
  readonly toasts: readonly Toast[];
  readonly onAction: (id: number) => void;
  readonly onDismiss: (id: number) => void;
}) {
  return (
    <section className="toast-stack" aria-label="Notifications" data-testid="toasts">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className="toast"
          data-tone={toast.tone}
          data-testid="toast"
          role={toast.tone === 'error' ? 'alert' : 'status'}
          aria-live={toast.tone === 'error' ? 'assertive' : 'polite'}
        >
          <div className="toast-body">
            <div className="toast-title">{escapeControls(toast.title)}</div>
            {toast.detail !== undefined && <div className="toast-detail">{escapeControls(toast.detail, { keepLineBreaks: true })}</div>}
          </div>
          {toast.action !== undefined && (
            <button type="button" className="button button-small" data-testid={toast.action.testId} onClick={() => onAction(toast.id)}>
              {toast.action.label}
            </button>
          )}
          <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => onDismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
