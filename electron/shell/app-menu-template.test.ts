import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type AppMenuOptions } from './app-menu-template';

function flatten(items: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

function menu(overrides: Partial<AppMenuOptions>): MenuItemConstructorOptions[] {
  return flatten(
    appMenuTemplate({
      platform: 'linux',
      appName: 'Vigil',
      allowDevTools: false,
      openLogsFolder: () => undefined,
      ...overrides,
    }),
  );
}

describe('appMenuTemplate', () => {
  it('has the standard Edit, View and Window menus and a Help entry that opens the logs folder', () => {
    let opened = 0;
    const items = menu({ openLogsFolder: () => (opened += 1) });
    const roles = items.map((item) => item.role).filter((role) => role !== undefined);
    expect(roles).toEqual(
      expect.arrayContaining(['fileMenu', 'editMenu', 'windowMenu', 'help', 'reload', 'zoomIn', 'togglefullscreen']),
    );
    const openLogs = items.find((item) => item.label === 'Open Logs Folder');
    expect(openLogs?.click).toBeTypeOf('function');
    (openLogs?.click as () => void)();
    expect(opened).toBe(1);
  });

  it('offers developer tools only when they are allowed', () => {
    expect(menu({ allowDevTools: false }).some((item) => item.role === 'toggleDevTools')).toBe(false);
    expect(menu({ allowDevTools: true }).some((item) => item.role === 'toggleDevTools')).toBe(true);
  });

  it('adds the application menu on macOS only', () => {
    expect(menu({ platform: 'darwin' }).find((item) => item.label === 'Vigil')).toBeDefined();
    expect(menu({ platform: 'darwin' }).some((item) => item.role === 'services')).toBe(true);
    expect(menu({ platform: 'win32' }).some((item) => item.role === 'services')).toBe(false);
  });
});
