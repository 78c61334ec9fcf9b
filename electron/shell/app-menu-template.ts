import type { MenuItemConstructorOptions } from 'electron';

/** What the application menu needs from the app. */
export interface AppMenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Developer tools: on in development, off in packaged builds unless VIGIL_DEVTOOLS=1. */
  readonly allowDevTools: boolean;
  /** Opens $VIGIL_HOME/logs in the system file manager. */
  readonly openLogsFolder: () => void;
}

/** Vigil's application menu: the platform's standard App/File/Edit/View/Window menus, plus Help → Open Logs Folder. */
export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const appMenu: MenuItemConstructorOptions[] = isMac
    ? [
        {
          label: options.appName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  const developerItems: MenuItemConstructorOptions[] = options.allowDevTools ? [{ role: 'toggleDevTools' }] : [];
  return [
    ...appMenu,
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...developerItems,
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ id: 'open-logs-folder', label: 'Open Logs Folder', click: () => options.openLogsFolder() }],
    },
  ];
}
