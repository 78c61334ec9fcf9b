import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './app-store';

const StoreContext = createContext<AppStore | undefined>(undefined);

/** Provides the app store to the tree. */
export function StoreProvider({ store, children }: { readonly store: AppStore; readonly children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** Reads a slice of the app store through a selector; re-renders only when the selection changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (store === undefined) throw new Error('useAppStore needs a StoreProvider above it');
  return useStore(store, selector);
}
