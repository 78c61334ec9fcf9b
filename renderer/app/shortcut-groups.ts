import type { ShortcutGroup } from '../components/shortcuts-help';

/** Every keyboard shortcut of the app, as the "?" reference lists them. */
export const shortcutGroups: readonly ShortcutGroup[] = [
  {
    title: 'Everywhere',
    keys: [
      ['Alt+1 … Alt+4', 'Sessions, Timeline, Memory, Approvals'],
      ['?', 'This list'],
      ['Esc', 'Close a plan, a panel or this list'],
    ],
  },
  {
    title: 'Lists',
    keys: [
      ['↑ ↓ · Home End · PgUp PgDn', 'Move'],
      ['Enter', 'Open'],
      ['/', 'Search the timeline'],
      ['Alt+click a checkpoint', 'Compare the open checkpoint with it'],
    ],
  },
  {
    title: 'Changed files of a checkpoint',
    keys: [
      ['Drag · Shift+click · Ctrl/⌘+click', 'Select files'],
      ['Shift+↑ ↓ · Space · Ctrl+A', 'Select from the keyboard'],
      ['R', 'Restore the selected files (shows the plan first)'],
      ['Shift+R', 'Restore all (shows the plan first)'],
      ['Enter (in a plan)', 'Confirm the plan'],
    ],
  },
  {
    title: 'Diff of a checkpoint',
    keys: [
      ['↑ ↓ · Alt+↑ ↓', 'Move line by line · change by change'],
      ['Shift+↑ ↓ · Space', 'Pick lines · pick the change under the cursor'],
      ['Enter', 'Restore the picked lines (shows the plan first)'],
      ['Esc', 'Clear the pick'],
      ['← → (on the detail’s edge)', 'Resize the detail'],
    ],
  },
  {
    title: 'Approvals',
    keys: [
      ['A', 'Approve the focused command once'],
      ['D', 'Deny it'],
    ],
  },
];
