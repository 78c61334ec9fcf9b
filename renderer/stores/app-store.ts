import { createStore, type StoreApi } from 'zustand';
import type { VigilClient } from '../api/vigil-client';
import { createApprovalsSlice, type ApprovalsSlice } from './approvals-slice';
import { createCheckpointSlice, type CheckpointSlice } from './checkpoint-slice';
import { createConfigSlice, type ConfigSlice } from './config-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createDroppedSlice, type DroppedSlice } from './dropped-slice';
import { createHistorySlice, type HistorySlice } from './history-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createLiveCompareSlice, type LiveCompareSlice } from './live-compare-slice';
import { createLiveSlice, type LiveSlice } from './live-slice';
import { createMemorySlice, type MemorySlice } from './memory-slice';
import { createNavigationSlice, type NavigationSlice } from './navigation-slice';
import { createRestoreSlice, type RestoreSlice } from './restore-slice';
import { createSessionsSlice, type SessionsSlice } from './sessions-slice';
import { createTimelineSlice, type TimelineSlice } from './timeline-slice';
import { createTimelineWordsSlice, type TimelineWordsSlice } from './timeline-words-slice';
import { createToastSlice, type ToastSlice } from './toast-slice';

/** The one UI store, made of slices. */
export type AppState = ConnectionSlice &
  NavigationSlice &
  ToastSlice &
  LiveSlice &
  MemorySlice &
  SessionsSlice &
  ApprovalsSlice &
  TimelineSlice &
  TimelineWordsSlice &
  CheckpointSlice &
  RestoreSlice &
  HistorySlice &
  ConfigSlice &
  LiveCompareSlice &
  DroppedSlice &
  LayoutSlice;

/** The store type components reach through the context. */
export type AppStore = StoreApi<AppState>;

/** Builds the store around a client (the real one in the app, any client in tests). */
export function createAppStore(client: VigilClient): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createConnectionSlice(client)(...args),
    ...createNavigationSlice(...args),
    ...createToastSlice(...args),
    ...createLiveSlice(client)(...args),
    ...createMemorySlice(client)(...args),
    ...createSessionsSlice(client)(...args),
    ...createApprovalsSlice(client)(...args),
    ...createTimelineSlice(client)(...args),
    ...createTimelineWordsSlice(client)(...args),
    ...createCheckpointSlice(client)(...args),
    ...createRestoreSlice(client)(...args),
    ...createHistorySlice(client)(...args),
    ...createConfigSlice(client)(...args),
    ...createLiveCompareSlice(...args),
    ...createDroppedSlice(client)(...args),
    ...createLayoutSlice(...args),
  }));
}
