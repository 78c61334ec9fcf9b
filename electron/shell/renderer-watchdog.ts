import { dialog, type BrowserWindow } from 'electron';
import type { Logger } from '../logging';
import type { RendererRecovery } from './renderer-recovery';

/** What the watchdog may do beyond reloading. */
export interface RendererWatchdogOptions {
  readonly recovery: RendererRecovery;
  readonly logger: Logger;
  readonly openLogsFolder: () => void;
  readonly quit: () => void;
}

/**
 * Watches the window's renderer. When it crashes (or is killed, or runs out of memory) the core in
 * the main process keeps running and the window reloads; past the recovery policy's limit it asks
 * the user instead of reloading in a loop. Hangs and failed loads are logged.
 */
export function watchRenderer(window: BrowserWindow, options: RendererWatchdogOptions): void {
  const { logger } = options;
  const contents = window.webContents;
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    logger.error('the window’s renderer process is gone; the core keeps running', {
      reason: details.reason,
      exitCode: details.exitCode,
    });
    if (window.isDestroyed()) return;
    const action = options.recovery.decide(details.reason);
    if (action === 'reload') {
      logger.info('reloading the window after a renderer crash');
      contents.reload();
    } else if (action === 'give-up') {
      void dialog
        .showMessageBox(window, {
          type: 'error',
          title: 'Vigil',
          message: 'The Vigil window keeps crashing.',
          detail:
            `It crashed again (${details.reason}) right after being reloaded several times, so it was not reloaded. ` +
            'Vigil itself is still running: agents stay connected and nothing is lost. The logs folder has the details.',
          buttons: ['Reload', 'Open Logs Folder', 'Quit Vigil'],
          defaultId: 0,
          cancelId: 0,
        })
        .then(({ response }) => {
          if (response === 0 && !window.isDestroyed()) contents.reload();
          else if (response === 1) options.openLogsFolder();
          else if (response === 2) options.quit();
        });
    }
  });
  contents.on('unresponsive', () => logger.warn('the window stopped responding'));
  contents.on('responsive', () => logger.info('the window responds again'));
  contents.on('preload-error', (_event, preloadPath, error) =>
    logger.error('the preload script failed', { preloadPath, error }),
  );
  contents.on('did-fail-load', (_event, errorCode, errorDescription, url, isMainFrame) => {
    if (isMainFrame) logger.error('the window failed to load', { errorCode, errorDescription, url });
  });
}
