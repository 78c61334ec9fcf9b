import type { Toast } from '../model/toast';
import { escapeControls } from '../../shared/text/control-characters';

/**
 * The stack of toasts in the corner; polite for news, assertive for errors. Each leaves on its
 * own after its lifetime (the clock stops while the pointer or the focus is on it). Its action is
 * off while Vigil is not connected (`isOffline`).
 */
export function ToastStack({
  toasts,
  isOffline,
  onAction,
  onDismiss,
  onHold,
}: {
  readonly toasts: readonly Toast[];
  readonly isOffline: boolean;
  readonly onAction: (id: number) => void;
  readonly onDismiss: (id: number) => void;
  readonly onHold: (id: number, isHeld: boolean) => void;
}) {
  return (
    <section className="toast-stack" aria-label="Notifications" data-testid="toasts">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className="toast"
          data-tone={toast.tone}
          data-testid="toast"
          data-lifetime-ms={toast.lifetimeMs}
          role={toast.tone === 'error' ? 'alert' : 'status'}
          aria-live={toast.tone === 'error' ? 'assertive' : 'polite'}
          onPointerEnter={() => onHold(toast.id, true)}
          onPointerLeave={() => onHold(toast.id, false)}
          onFocus={() => onHold(toast.id, true)}
          onBlur={() => onHold(toast.id, false)}
        >
          <div className="toast-body">
            <div className="toast-title">{escapeControls(toast.title)}</div>
            {toast.detail !== undefined && (
              <div className="toast-detail">{escapeControls(toast.detail, { keepLineBreaks: true })}</div>
            )}
          </div>
          {toast.action !== undefined && (
            <button
              type="button"
              className="button button-small"
              data-testid={toast.action.testId}
              disabled={isOffline}
              onClick={() => onAction(toast.id)}
            >
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
