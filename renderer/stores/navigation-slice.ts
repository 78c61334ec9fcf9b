import type { StateCreator } from 'zustand';
import { hashFromRoute, routeFromHash, type Route, type ScreenId } from '../model/route';
import type { AppState } from './app-store';

/** Where the user is, and the last place on each screen (switching screens keeps each one's place). */
export interface NavigationSlice {
  readonly route: Route;
  readonly lastRoutes: Readonly<Partial<Record<ScreenId, Route>>>;
  /** Goes to a place; the address bar and history follow, so reload and Back keep working. `replace` moves without a history entry (keyboard stepping). */
  readonly navigate: (route: Route, options?: { readonly replace?: boolean }) => void;
  /** Goes to a screen, where it was left. */
  readonly showScreen: (screen: ScreenId) => void;
  /** The address changed by itself (Back, Forward, an edited hash): follow it. */
  readonly followAddress: () => void;
}

function currentHash(): string {
  return typeof window === 'undefined' ? '' : window.location.hash;
}

/** The navigation slice. */
export const createNavigationSlice: StateCreator<AppState, [], [], NavigationSlice> = (set, get) => {
  const initial = routeFromHash(currentHash());
  const arrive = (route: Route): void => {
    set((state) => ({ route, lastRoutes: { ...state.lastRoutes, [route.screen]: route } }));
  };
  return {
    route: initial,
    lastRoutes: { [initial.screen]: initial },
    navigate: (route, options) => {
      const hash = hashFromRoute(route);
      if (typeof window !== 'undefined' && window.location.hash !== hash) {
        if (options?.replace === true) window.history.replaceState(null, '', hash);
        else window.history.pushState(null, '', hash);
      }
      arrive(route);
    },
    showScreen: (screen) => {
      const state = get();
      if (state.route.screen === screen) return;
      state.navigate(state.lastRoutes[screen] ?? routeFromHash(`#/${screen}`));
    },
    followAddress: () => arrive(routeFromHash(currentHash())),
  };
};
