/**
 * The UI's own preferences (sizes of panes and the like), kept in the page's localStorage under
 * one key: per installation in the desktop app, per address in a browser on `vigil serve`.
 * Nothing here is a setting of the core (those are in config.json); storage that is off or full
 * keeps the defaults for this page only.
 */

const storageKey = 'vigil.ui-prefs';

/** The preferences kept, each optional (absent: the default). */
export interface UiPrefs {
  /** The checkpoint detail's share of the timeline's width, in percent. */
  readonly detailWidth?: number | undefined;
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Storage disabled (a sandboxed frame, a privacy setting): no preference is kept.
    return undefined;
  }
}

/** The kept preferences; any that are missing or malformed are left out. */
export function readUiPrefs(): UiPrefs {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(storageKey) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    const width = (parsed as Record<string, unknown>)['detailWidth'];
    return typeof width === 'number' && Number.isFinite(width) ? { detailWidth: width } : {};
  } catch {
    return {};
  }
}

/** Keeps `change` on top of the kept preferences; a storage that refuses it leaves them as they were. */
export function writeUiPrefs(change: UiPrefs): void {
  try {
    storage()?.setItem(storageKey, JSON.stringify({ ...readUiPrefs(), ...change }));
  } catch {
    // Full or disabled: the preference lasts for this page only.
  }
}
