import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

/** The screens of the app, in navigation order. */
export const screenIds = ['sessions', 'timeline', 'memory', 'approvals'] as const;
/** One screen of the app. */
export type ScreenId = (typeof screenIds)[number];

/** Which screen is showing. */
export interface NavigationSlice {
  readonly screen: ScreenId;
  readonly showScreen: (screen: ScreenId) => void;
}

/** Reads the screen from the URL's hash (`#/timeline`), so a reload keeps the place. */
export function screenFromHash(hash: string): ScreenId {
  const name = hash.replace(/^#\/?/, '').split('/')[0];
  return (screenIds as readonly string[]).includes(name ?? '') ? (name as ScreenId) : 'sessions';
}

/** The navigation slice. */
export const createNavigationSlice: StateCreator<AppState, [], [], NavigationSlice> = (set) => ({
  screen: typeof window === 'undefined' ? 'sessions' : screenFromHash(window.location.hash),
  showScreen: (screen) => {
    if (typeof window !== 'undefined' && screenFromHash(window.location.hash) !== screen) {
      window.history.replaceState(null, '', `#/${screen}`);
    }
    set({ screen });
  },
});
