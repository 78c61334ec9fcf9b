import { useEffect, type ReactElement } from 'react';
import { ConnectionIndicator } from '../components/connection-indicator';
import { NavRail, type NavItem } from '../components/nav-rail';
import { ApprovalsScreen } from '../features/approvals/approvals-screen';
import { MemoryScreen } from '../features/memory/memory-screen';
import { SessionsScreen } from '../features/sessions/sessions-screen';
import { TimelineScreen } from '../features/timeline/timeline-screen';
import { screenFromHash, screenIds, type ScreenId } from '../stores/navigation-slice';
import { useAppStore } from '../stores/store-context';

const screens: Readonly<Record<ScreenId, { readonly label: string; readonly render: () => ReactElement }>> = {
  sessions: { label: 'Sessions', render: () => <SessionsScreen /> },
  timeline: { label: 'Timeline', render: () => <TimelineScreen /> },
  memory: { label: 'Memory', render: () => <MemoryScreen /> },
  approvals: { label: 'Approvals', render: () => <ApprovalsScreen /> },
};

/** The frame of the app: header with the connection, navigation, and the current screen. */
export function App() {
  const connection = useAppStore((state) => state.connection);
  const appInfo = useAppStore((state) => state.appInfo);
  const screen = useAppStore((state) => state.screen);
  const showScreen = useAppStore((state) => state.showScreen);
  const startConnection = useAppStore((state) => state.startConnection);

  useEffect(() => startConnection(), [startConnection]);

  useEffect(() => {
    const onHashChange = (): void => showScreen(screenFromHash(window.location.hash));
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const target = screenIds[Number(event.key) - 1];
      if (target === undefined) return;
      event.preventDefault();
      showScreen(target);
    };
    window.addEventListener('hashchange', onHashChange);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [showScreen]);

  const items: NavItem<ScreenId>[] = screenIds.map((id, index) => ({
    id,
    label: screens[id].label,
    shortcut: `Alt+${index + 1}`,
  }));

  return (
    <div className="app" data-testid="app" data-screen={screen}>
      <header className="app-header">
        <h1 className="app-title">Vigil</h1>
        {appInfo !== undefined && (
          <span className="app-home" title="Data folder (VIGIL_HOME)">
            {appInfo.home}
          </span>
        )}
        <ConnectionIndicator state={connection} />
      </header>
      <NavRail items={items} current={screen} onSelect={showScreen} />
      <main className="app-main" data-testid={`screen-${screen}`}>
        {screens[screen].render()}
      </main>
    </div>
  );
}
