import { BrowserWindow, nativeTheme, session } from 'electron';
import { appOrigin } from './app-protocol';
import { hardenedWebPreferences } from './web-preferences';

/** Denies every permission a page could ask for (camera, notifications, geolocation, …). */
export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

/** Opens Vigil's one window: hardened, loaded from the packaged files, unable to navigate or open windows. */
export function createMainWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Vigil',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#ffffff',
    webPreferences: hardenedWebPreferences(preloadPath),
  });
  const contents = window.webContents;
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${appOrigin}/index.html`);
  return window;
}
