import { useEffect, useRef } from 'react';
import { useAppStore } from '../stores/store-context';

/**
 * A desktop notification for each new approval while the window is in the background, so a
 * waiting command is not denied by timeout just because nobody looked. Uses the web
 * Notification API (Electron's renderer has it too); silent without permission.
 */
export function useApprovalNotifications(): void {
  const approvals = useAppStore((state) => state.approvals);
  const showScreen = useAppStore((state) => state.showScreen);
  const seen = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const fresh = approvals.filter((approval) => !seen.current.has(approval.id));
    seen.current = new Set(approvals.map((approval) => approval.id));
    if (fresh.length === 0 || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    if (document.visibilityState === 'visible' && document.hasFocus()) return;
    for (const approval of fresh) {
      const notification = new Notification(`${approval.agent} asks to run a command`, { body: approval.summary, tag: approval.id });
      notification.onclick = () => {
        window.focus();
        showScreen('approvals');
      };
    }
  }, [approvals, showScreen]);
}
