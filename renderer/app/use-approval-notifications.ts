import { useEffect, useRef } from 'react';
import { useAppStore } from '../stores/store-context';

/**
 * A desktop notification for each new approval while the page is in the background, so a waiting
 * command is not denied by timeout just because nobody looked. For the served UI, through the web
 * Notification API (silent without permission); in the desktop app the main process notifies.
 */
export function useApprovalNotifications(): void {
  const approvals = useAppStore((state) => state.approvals);
  const showScreen = useAppStore((state) => state.showScreen);
  const isDesktop = useAppStore(
    (state) => state.connection.kind === 'connected' && state.connection.transport === 'ipc',
  );
  const seen = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const fresh = approvals.filter((approval) => !seen.current.has(approval.id));
    seen.current = new Set(approvals.map((approval) => approval.id));
    if (isDesktop || fresh.length === 0 || typeof Notification === 'undefined' || Notification.permission !== 'granted')
      return;
    if (document.visibilityState === 'visible' && document.hasFocus()) return;
    for (const approval of fresh) {
      const notification = new Notification(`${approval.agent} asks to run a command`, {
        body: approval.summary,
        tag: approval.id,
      });
      notification.onclick = () => {
        window.focus();
        showScreen('approvals');
      };
    }
  }, [approvals, showScreen, isDesktop]);
}
