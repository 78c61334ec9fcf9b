import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ConfigProblemNotice } from '../components/config-problem-notice';
import { ConnectionIndicator } from '../components/connection-indicator';
import { ConnectionNotice } from '../components/connection-notice';
import { NavRail, type NavItem } from '../components/nav-rail';
import { ShortcutsHelp } from '../components/shortcuts-help';
import { ToastStack } from '../components/toast-stack';
import { ApprovalsScreen } from '../features/approvals/approvals-screen';
import { MemoryScreen } from '../features/memory/memory-screen';
import { SessionsScreen } from '../features/sessions/sessions-screen';
import { TimelineScreen } from '../features/timeline/timeline-screen';
import { screenIds, type ScreenId } from '../model/route';
import { useAppStore } from '../stores/store-context';
import { focusMainList } from './focus-main-list';
import { shortcutGroups } from './shortcut-groups';
import { useApprovalNotifications } from './use-approval-notifications';

const screens: Readonly<Record<ScreenId, { readonly label: string; readonly render: () => ReactElement }>> = {
  sessions: { label: 'Sessions', render: () => <SessionsScreen /> },
  timeline: { label: 'Timeline', render: () => <TimelineScreen /> },
  memory: { label: 'Memory', render: () => <MemoryScreen /> },
  approvals: { label: 'Approvals', render: () => <ApprovalsScreen /> },
};

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** The frame of the app: header with the connection, navigation, the current screen, toasts. */
export function App() {
  const connection = useAppStore((state) => state.connection);
  const lostAt = useAppStore((state) => state.lostAt);
  const openAddress = useAppStore((state) => state.openAddress);
  const holdToast = useAppStore((state) => state.holdToast);
  const appInfo = useAppStore((state) => state.appInfo);
  const screen = useAppStore((state) => state.route.screen);
  const showScreen = useAppStore((state) => state.showScreen);
  const followAddress = useAppStore((state) => state.followAddress);
  const startConnection = useAppStore((state) => state.startConnection);
  const startLive = useAppStore((state) => state.startLive);
  const toasts = useAppStore((state) => state.toasts);
  const runToastAction = useAppStore((state) => state.runToastAction);
  const dismissToast = useAppStore((state) => state.dismissToast);
  const pendingApprovals = useAppStore((state) => state.approvals.length);
  const configProblem = useAppStore((state) => state.config?.problem ?? null);
  const [isHelpOpen, setHelpOpen] = useState(false);
  // Alt+1…4 asks for the screen's main list to get the focus once it is drawn.
  const [focusRequest, setFocusRequest] = useState(0);
  const mainRef = useRef<HTMLElement | null>(null);
  const isOffline = connection.kind !== 'connected';
  useApprovalNotifications();

  useEffect(() => {
    const main = mainRef.current;
    if (focusRequest === 0 || main === null) return undefined;
    return focusMainList(main);
  }, [focusRequest, screen]);

  useEffect(() => startConnection(), [startConnection]);
  useEffect(() => startLive(), [startLive]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      if (event.altKey && !event.ctrlKey && !event.metaKey) {
        const target = screenIds[Number(event.key) - 1];
        if (target === undefined) return;
        event.preventDefault();
        showScreen(target);
        setFocusRequest((count) => count + 1);
        return;
      }
      if (event.key === '?' && !isTyping(event.target)) {
        event.preventDefault();
        setHelpOpen((open) => !open);
      }
    };
    window.addEventListener('hashchange', followAddress);
    window.addEventListener('popstate', followAddress);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('hashchange', followAddress);
      window.removeEventListener('popstate', followAddress);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [showScreen, followAddress]);

  const items: NavItem<ScreenId>[] = screenIds.map((id, index) => ({
    id,
    label: screens[id].label,
    shortcut: `Alt+${index + 1}`,
    ...(id === 'approvals' ? { badge: pendingApprovals } : {}),
  }));

  return (
    <div className="app" data-testid="app" data-screen={screen} data-connection={isOffline ? 'offline' : 'online'}>
      <header className="app-header">
        <h1 className="app-title">
          <span className="app-logo" aria-hidden="true" />
          Vigil
        </h1>
        {appInfo !== undefined && (
          <span className="app-home" title="Data folder (VIGIL_HOME)">
            {appInfo.home}
          </span>
        )}
        <ConnectionIndicator state={connection} />
        <button
          type="button"
          className="help-button"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => setHelpOpen(true)}
        >
          ?
        </button>
      </header>
      <div className="app-notices">
        <ConnectionNotice state={connection} lostAt={lostAt} home={appInfo?.home} onOpenAddress={openAddress} />
        {configProblem !== null && <ConfigProblemNotice problem={configProblem} />}
      </div>
      <NavRail items={items} current={screen} onSelect={showScreen} />
      <main className="app-main" data-testid={`screen-${screen}`} ref={mainRef}>
        {/* While not connected, every action of every screen is off: a disabled fieldset disables every control in it. */}
        <fieldset className="app-actions" disabled={isOffline} data-testid="app-actions">
          {screens[screen].render()}
        </fieldset>
      </main>
      <ToastStack
        toasts={toasts}
        isOffline={isOffline}
        onAction={runToastAction}
        onDismiss={dismissToast}
        onHold={holdToast}
      />
      {isHelpOpen && <ShortcutsHelp groups={shortcutGroups} onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
