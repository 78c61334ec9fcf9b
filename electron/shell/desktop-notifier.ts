import { Notification, type BrowserWindow } from 'electron';
import type { DesktopNotice } from './desktop-notices';

/** Brings the window forward (restoring it if minimized). */
export function revealWindow(window: BrowserWindow): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/**
 * Shows a notice as a system notification when the user is not looking at Vigil (the window
 * shows it already when focused); clicking it brings the window forward.
 */
export function showDesktopNotice(notice: DesktopNotice, window: BrowserWindow | undefined): void {
  if (!Notification.isSupported()) return;
  if (window !== undefined && !window.isDestroyed() && window.isFocused()) return;
  const notification = new Notification({ title: notice.title, body: notice.body });
  notification.on('click', () => {
    if (window !== undefined) revealWindow(window);
  });
  notification.show();
}
