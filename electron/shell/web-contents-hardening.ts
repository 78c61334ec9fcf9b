import { app, session, type Session } from 'electron';
import type { Logger } from '../logging';

/**
 * Denies every permission a page could ask for (camera, microphone, notifications, geolocation,
 * HID/USB/serial devices, …) and answers every permission check "no". Vigil's page needs none;
 * desktop notifications come from the main process, not the page.
 */
export function denyAllPermissions(target: Session = session.defaultSession): void {
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  target.setPermissionCheckHandler(() => false);
  target.setDevicePermissionHandler(() => false);
}

/**
 * Applies the checklist's navigation rules to every web contents the app ever creates (the main
 * window, and any other a future change might add): no new windows, no navigation or redirect
 * away from the loaded page, no <webview>. Each refusal is logged with its URL.
 */
export function hardenEveryWebContents(logger: Logger): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      logger.warn('refused to open a window', { url });
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      event.preventDefault();
      logger.warn('refused a navigation', { url });
    });
    contents.on('will-redirect', (event, url) => {
      event.preventDefault();
      logger.warn('refused a redirect', { url });
    });
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      logger.warn('refused to attach a <webview>');
    });
  });
}
