import { BrowserWindow, nativeTheme } from 'electron';
import { appEntryUrl } from './app-origin';
import { productName } from './app-identity';
import type { WindowPlacement, WindowSizing, WindowState } from './window-state';

/** The window's first-run size and its minimum. */
export const mainWindowSizing: WindowSizing = { width: 1280, height: 800, minWidth: 960, minHeight: 600 };

/** What the main window needs from the app. */
export interface MainWindowOptions {
  readonly preloadPath: string;
  readonly placement: WindowPlacement;
  /** Developer tools: on in development, off in packaged builds unless VIGIL_DEVTOOLS=1. */
  readonly allowDevTools: boolean;
  /** Called whenever the size, position or mode changes, and once more as the window closes. */
  readonly onStateChanged: (state: WindowState) => void;
}

/**
 * Opens Vigil's one window, loaded from app://vigil. The renderer is isolated and sandboxed with no
 * Node, no webviews, no insecure content, no experimental or extra Blink features (middle-click
 * "auxclick" is disabled too), and DevTools only where allowed. The preferences are written out
 * here, at the `new BrowserWindow` call, so that electronegativity and a reader see each one
 * (docs/security.md items 2–11); `window-preferences.test.ts` keeps them that way.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { placement } = options;
  const window = new BrowserWindow({
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    width: placement.width,
    height: placement.height,
    minWidth: mainWindowSizing.minWidth,
    minHeight: mainWindowSizing.minHeight,
    show: false,
    title: productName,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#ffffff',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: options.allowDevTools,
    },
  });
  const reportState = (): void => {
    if (window.isDestroyed()) return;
    options.onStateChanged({
      bounds: window.getNormalBounds(),
      isMaximized: window.isMaximized(),
      isFullScreen: window.isFullScreen(),
    });
  };
  window.on('resize', reportState);
  window.on('move', reportState);
  window.on('maximize', reportState);
  window.on('unmaximize', reportState);
  window.on('enter-full-screen', reportState);
  window.on('leave-full-screen', reportState);
  window.on('close', reportState);
  if (placement.isMaximized) window.maximize();
  if (placement.isFullScreen) window.setFullScreen(true);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appEntryUrl);
  return window;
}
