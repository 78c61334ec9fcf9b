import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';
import { readUiPrefs, writeUiPrefs } from './ui-prefs';

/** The checkpoint detail's share of the timeline's width, in percent: its bounds and where it starts. */
export const detailWidthBounds = { min: 30, max: 75, initial: 52 } as const;

/** A width within the bounds, in whole percent. */
export function clampDetailWidth(percent: number): number {
  return Math.round(Math.min(detailWidthBounds.max, Math.max(detailWidthBounds.min, percent)));
}

/** Sizes of panes the person set, kept across reloads and restarts. */
export interface LayoutSlice {
  /** The checkpoint detail's share of the timeline's width, in percent. */
  readonly detailWidth: number;
  /** Sets the detail's width (clamped to its bounds) and keeps it. */
  readonly resizeDetail: (percent: number) => void;
}

/** The layout slice: starts from the kept preferences. */
export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set, get) => ({
  detailWidth: clampDetailWidth(readUiPrefs().detailWidth ?? detailWidthBounds.initial),

  resizeDetail: (percent) => {
    const detailWidth = clampDetailWidth(percent);
    if (detailWidth === get().detailWidth) return;
    set({ detailWidth });
    writeUiPrefs({ detailWidth });
  },
});
