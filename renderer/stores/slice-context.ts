import type { StoreApi } from 'zustand';
import type { VigilClient } from '../api/vigil-client';
import type { AppState } from './app-store';

/** What a slice's actions written outside its closure are given: the store's `set` and `get`, and the client. */
export interface SliceContext {
  readonly client: VigilClient;
  readonly set: StoreApi<AppState>['setState'];
  readonly get: StoreApi<AppState>['getState'];
}
