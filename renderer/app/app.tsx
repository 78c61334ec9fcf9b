import { useEffect, type ReactElement } from 'react';
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
import { agentPromptCount } from '../model/agent-prompt-calls';
import { screenIds, type ScreenId } from '../model/route';
import { useAppStore } from '../stores/store-context';
import { shortcutGroups } from './shortcut-groups';
import { useAppShortcuts } from './use-app-shortcuts';
import { useApprovalNotifications } from './use-approval-notifications';

const screens: Readonly<Record<ScreenId, { readonly label: string; readonly render: () => ReactElement }>> = {
  sessions: { label: 'Sessions', render: () => <SessionsScreen /> },
  timeline: { label: 'Timeline', render: () => <TimelineScreen /> },
  memory: { label: 'Memory', render: () => <MemoryScreen /> },
  approvals: { label: 'Approvals', render: () => <ApprovalsScreen /> },
};

/** The header: the app's name, its data folder, the connection, and the shortcuts help button. */
function AppHeader({ onHelp }: { readonly onHelp: () => void }) {
  const connection = useAppStore((state) => state.connection);
  const appInfo = useAppStore((state) => state.appInfo);
  return (
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
        onClick={onHelp}
      >
        ?
      </button>
    </header>
  );
}

/** Notices above the screens: a lost connection, a config file that could not be read. */
function AppNotices() {
  const connection = useAppStore((state) => state.connection);
  const lostAt = useAppStore((state) => state.lostAt);
  const openAddress = useAppStore((state) => state.openAddress);
  const home = useAppStore((state) => state.appInfo?.home);
  const configProblem = useAppStore((state) => state.config?.problem ?? null);
  return (
    <div className="app-notices">
      <ConnectionNotice state={connection} lostAt={lostAt} home={home} onOpenAddress={openAddress} />
      {configProblem !== null && <ConfigProblemNotice problem={configProblem} />}
    </div>
  );
}

/** The navigation rail: one item per screen, with its shortcut, and the count of pending approvals. */
function AppNav({ screen }: { readonly screen: ScreenId }) {
  const showScreen = useAppStore((state) => state.showScreen);
  const pendingApprovals = useAppStore((state) => state.approvals.length + agentPromptCount(state.sessions));
  const items: NavItem<ScreenId>[] = screenIds.map((id, index) => ({
    id,
    label: screens[id].label,
    shortcut: `Alt+${index + 1}`,
    ...(id === 'approvals' ? { badge: pendingApprovals } : {}),
  }));
  return <NavRail items={items} current={screen} onSelect={showScreen} />;
}

/** The toasts, their actions off while offline. */
function AppToasts({ isOffline }: { readonly isOffline: boolean }) {
  const toasts = useAppStore((state) => state.toasts);
  const runToastAction = useAppStore((state) => state.runToastAction);
  const dismissToast = useAppStore((state) => state.dismissToast);
  const holdToast = useAppStore((state) => state.holdToast);
  return (
    <ToastStack
      toasts={toasts}
      isOffline={isOffline}
      onAction={runToastAction}
      onDismiss={dismissToast}
      onHold={holdToast}
    />
  );
}

/** The frame of the app: header with the connection, navigation, the current screen, toasts. */
export function App() {
  const isOffline = useAppStore((state) => state.connection.kind !== 'connected');
  const screen = useAppStore((state) => state.route.screen);
  const startConnection = useAppStore((state) => state.startConnection);
  const startLive = useAppStore((state) => state.startLive);
  useApprovalNotifications();
  useEffect(() => startConnection(), [startConnection]);
  useEffect(() => startLive(), [startLive]);
  const { mainRef, isHelpOpen, setHelpOpen } = useAppShortcuts(screen);

  return (
    <div className="app" data-testid="app" data-screen={screen} data-connection={isOffline ? 'offline' : 'online'}>
      <AppHeader onHelp={() => setHelpOpen(true)} />
      <AppNotices />
      <AppNav screen={screen} />
      <main className="app-main" data-testid={`screen-${screen}`} ref={mainRef}>
        {/* While not connected, every action of every screen is off: a disabled fieldset disables every control in it. */}
        <fieldset className="app-actions" disabled={isOffline} data-testid="app-actions">
          {screens[screen].render()}
        </fieldset>
      </main>
      <AppToasts isOffline={isOffline} />
      {isHelpOpen && <ShortcutsHelp groups={shortcutGroups} onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
