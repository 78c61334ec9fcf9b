import { expect, test } from '@playwright/test';
import { desktopContentSecurityPolicy } from '../electron/shell/content-security-policy';
import { electronOrSkip, freshHome, launchDesktop, removeHome } from './electron-launch';

/** docs/security.md, checked in the running app where an Electron binary exists. */
test.describe('the desktop window’s hardening', () => {
  test('the page has no Node, no Electron and no webviews, only the narrow bridge', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app, window } = await launchDesktop(executable, home);
    try {
      // The webPreferences themselves are checked at their source (electron/shell/window-preferences.test.ts);
      // here, what the page can actually reach.
      const page = await window.evaluate(() => {
        const scope = globalThis as unknown as Record<string, unknown> & {
          vigil: object;
          location: { origin: string };
          customElements: { get(name: string): unknown };
        };
        return {
          require: typeof scope['require'],
          process: typeof scope['process'],
          ipcRenderer: typeof scope['ipcRenderer'],
          webview: typeof scope.customElements.get('webview'),
          bridge: Object.keys(scope.vigil).sort(),
          origin: scope.location.origin,
        };
      });
      expect(page).toEqual({
        require: 'undefined',
        process: 'undefined',
        ipcRenderer: 'undefined',
        webview: 'undefined',
        bridge: ['call', 'onEvent'],
        origin: 'app://vigil',
      });
      const refused = await window.evaluate(() =>
        (globalThis as unknown as { vigil: { call(channel: string, payload: unknown): Promise<unknown> } }).vigil.call(
          'fs:readFile',
          {},
        ),
      );
      expect(refused).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    } finally {
      await app.close();
      await removeHome(home);
    }
  });

  test('every app:// response carries the CSP, and the page cannot reach the network', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app, window } = await launchDesktop(executable, home);
    try {
      const headers = await app.evaluate(async ({ net }) => {
        const found = await net.fetch('app://vigil/index.html');
        const missing = await net.fetch('app://vigil/../../etc/passwd');
        return {
          found: [found.status, found.headers.get('content-security-policy')],
          missing: [missing.status, missing.headers.get('content-security-policy')],
        };
      });
      expect(headers).toEqual({
        found: [200, desktopContentSecurityPolicy],
        missing: [404, desktopContentSecurityPolicy],
      });
      const fetched = await window.evaluate(() =>
        fetch('https://example.com/').then(
          () => 'reached',
          () => 'blocked',
        ),
      );
      expect(fetched).toBe('blocked');
    } finally {
      await app.close();
      await removeHome(home);
    }
  });

  test('the page can neither navigate away nor open windows', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app, window } = await launchDesktop(executable, home);
    try {
      const opened = await window.evaluate(() =>
        (globalThis as unknown as { open(url: string): unknown }).open('https://example.com/'),
      );
      expect(opened).toBeNull();
      await window.evaluate(() => {
        (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
      });
      await expect(window).toHaveURL(/^app:\/\/vigil\//);
      await expect(window.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.close();
      await removeHome(home);
    }
  });
});
