import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, Menu, screen, type MessageBoxOptions } from 'electron';
import { createCore } from './core';
import { DisposableStack, resolveVigilHome, vigilPaths } from './lib';
import { createFileLogger, logProcessErrors } from './logging';
import { stopBackgroundCoreOf } from './server';
import {
  applicationId,
  appMenuTemplate,
  createMainWindow,
  createRendererRecovery,
  createWindowStateWriter,
  denyAllPermissions,
  type DesktopGateway,
  desktopNoticeRules,
  gatewayUnavailableMessage,
  handleAppProtocol,
  hardenEveryWebContents,
  mainWindowSizing,
  openLogsFolder,
  placeWindow,
  productName,
  readWindowState,
  registerAppSchemePrivileges,
  registerIpcBridge,
  revealWindow,
  showDesktopNotice,
  shutDownWithin,
  startDesktopGateway,
  subscribeDesktopNotices,
  watchRenderer,
  type WindowState,
} from './shell';

/**
 * The desktop composition root: one instance per data folder, the core in the main process, the
 * contract over IPC to one hardened window, the agent gateway on loopback, and a shutdown that
 * waits for the core to flush and unlock before the process exits.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, '../renderer');
const preloadPath = path.resolve(here, '../preload/preload.cjs');
/** How long quitting waits for the core to flush session logs and release its locks. */
const shutdownTimeoutMs = 10_000;

// Before `ready` (Electron waits for this module's top-level awaits): one data folder holds
// everything, Chromium's own files included, so the single-instance lock is per VIGIL_HOME.
// The default is the CLI's (~/.vigil), so `vigil mcp`, `vigil checkpoints` and the app share one
// store and one serve.json without any configuration.
const home = resolveVigilHome(process.env);
const paths = vigilPaths(home);
try {
  await mkdir(path.join(home, 'chromium'), { recursive: true, mode: 0o700 });
} catch (error) {
  dialog.showErrorBox(
    `${productName} could not start`,
    `The data folder ${home} cannot be created: ${String(error)}\n\nSet VIGIL_HOME to a folder you can write to.`,
  );
  // Nothing is running yet, so there is nothing to release; stop before anything else touches the folder.
  process.exit(1);
}
app.setName(productName);
app.setPath('userData', home);
app.setPath('sessionData', path.join(home, 'chromium'));
if (process.platform === 'win32') app.setAppUserModelId(applicationId);
app.enableSandbox();
registerAppSchemePrivileges();

const logger = createFileLogger({
  directory: paths.logs,
  fileName: 'desktop.log',
  maxBytes: 5 * 1024 * 1024,
  keep: 5,
  echo: { level: 'warn', write: (line) => process.stderr.write(line) },
});
const resources = new DisposableStack();
resources.add(() => logger.flush());
/** Shows escaped errors in the UI once the core is up; they are logged from the first line on. */
let reportProblem: ((message: string) => void) | undefined;
resources.add(
  logProcessErrors(logger, (error) => reportProblem?.(error instanceof Error ? error.message : String(error))),
);
const allowDevTools = !app.isPackaged || process.env['VIGIL_DEVTOOLS'] === '1';
let mainWindow: BrowserWindow | undefined;

/** The displays' work areas, the primary one first. */
function workAreas(): Electron.Rectangle[] {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map(
    (display) => display.workArea,
  );
}

/** Tells the user the agent gateway could not start, and why (the app works on without it). */
function warnGatewayUnavailable(gateway: Extract<DesktopGateway, { readonly kind: 'unavailable' }>): void {
  const text = gatewayUnavailableMessage(gateway.error, gateway.owner, home);
  const options: MessageBoxOptions = {
    type: 'warning',
    title: productName,
    message: text.message,
    detail: text.detail,
    buttons: ['OK'],
  };
  // The window may have been closed meanwhile (macOS keeps running without one).
  const window = BrowserWindow.getAllWindows().find((candidate) => !candidate.isDestroyed());
  void (window === undefined ? dialog.showMessageBox(options) : dialog.showMessageBox(window, options));
}

/** Starts everything once `ready`; each resource registers how to release it. */
async function start(): Promise<void> {
  logger.info('desktop app starting', {
    home,
    version: app.getVersion(),
    electron: process.versions.electron,
    isPackaged: app.isPackaged,
  });
  await app.whenReady();
  denyAllPermissions();
  hardenEveryWebContents(logger);
  resources.add(handleAppProtocol(rendererDir));

  // A background core started by a command gives way to the app: stopped before the app's core is built.
  await stopBackgroundCoreOf(vigilPaths(home).serveInfo, logger);
  const core = await createCore({ home, logger });
  resources.add(() => core.dispose());
  reportProblem = (message) =>
    core.events.emit('app:problem-reported', { source: 'main process', message, at: new Date().toISOString() });
  resources.add(registerIpcBridge(core.router, core.events, logger));

  const windowStateFile = path.join(home, 'window-state.json');
  let windowState: WindowState | undefined = await readWindowState(windowStateFile, logger);
  const windowStateWriter = createWindowStateWriter(windowStateFile, logger);
  resources.add(() => windowStateWriter.flush());
  const showLogs = (): void => void openLogsFolder(paths.logs, logger);
  const recovery = createRendererRecovery({ maxReloads: 3, windowMs: 60_000 });

  const openWindow = (): BrowserWindow => {
    const window = createMainWindow({
      preloadPath,
      placement: placeWindow(windowState, workAreas(), mainWindowSizing),
      allowDevTools,
      onStateChanged: (state) => {
        windowState = state;
        windowStateWriter.save(state);
      },
    });
    watchRenderer(window, { recovery, logger, openLogsFolder: showLogs, quit: () => app.quit() });
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = undefined;
      void windowStateWriter.flush();
    });
    return window;
  };

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({ platform: process.platform, appName: productName, allowDevTools, openLogsFolder: showLogs }),
    ),
  );
  mainWindow = openWindow();
  app.on('second-instance', () => {
    logger.info('a second launch was redirected to this window');
    if (mainWindow === undefined) mainWindow = openWindow();
    else revealWindow(mainWindow);
  });
  app.on('activate', () => {
    mainWindow ??= openWindow();
  });
  resources.add(
    subscribeDesktopNotices(core.events, desktopNoticeRules, (notice) => showDesktopNotice(notice, mainWindow)),
  );

  const gateway = await startDesktopGateway({ core, logger });
  resources.add(() => gateway.close());
  if (gateway.kind === 'unavailable') warnGatewayUnavailable(gateway);
  logger.info('desktop app started', { gateway: gateway.kind === 'serving' ? gateway.baseUrl : gateway.error.code });
}

/** The one shutdown in progress, if any. */
let stopping: Promise<void> | undefined;

/** Quits once: waits (up to a limit) for startup to settle and everything to be released, then exits. */
function stop(started: Promise<void>): Promise<void> {
  stopping ??= (async () => {
    logger.info('desktop app stopping');
    const outcome = await shutDownWithin(
      async () => {
        await started.catch(() => undefined);
        await resources.dispose();
      },
      shutdownTimeoutMs,
      logger,
    );
    app.exit(outcome === 'clean' ? 0 : 1);
  })();
  return stopping;
}

if (app.requestSingleInstanceLock()) {
  const started = start().catch(async (error: unknown) => {
    logger.error('the desktop app could not start', { error });
    dialog.showErrorBox(
      `${productName} could not start`,
      `${error instanceof Error ? error.message : String(error)}\n\nThe logs are in ${paths.logs}`,
    );
    await stop(Promise.resolve());
  });
  app.on('window-all-closed', () => {
    // macOS apps stay running (and keep serving agents) with no window; elsewhere closing quits.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', (event) => {
    event.preventDefault();
    void stop(started);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
} else {
  // Another Vigil window owns this data folder; it has been told to come forward.
  app.quit();
}
