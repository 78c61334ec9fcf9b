import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { builtCli } from './fixtures/vigil-fixture';
import { desktopEntry, desktopLog, electronOrSkip, freshHome, launchDesktop, removeHome } from './electron-launch';

interface AppInfo {
  readonly pid: number;
  readonly startedAt: string;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

test.describe('the desktop app', () => {
  test('a second launch on the same data folder focuses the first window and exits', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app } = await launchDesktop(executable, home);
    try {
      // As Playwright launches the first one: Linux CI machines often lack a configured SUID sandbox.
      const sandboxArgs = process.platform === 'linux' ? ['--no-sandbox'] : [];
      const second = spawn(executable, [...sandboxArgs, desktopEntry], {
        env: { ...process.env, VIGIL_HOME: home },
        stdio: 'ignore',
      });
      expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(0);
      expect(app.windows()).toHaveLength(1);
      await expect
        .poll(async () =>
          (await desktopLog(home)).some((record) => record.message === 'a second launch was redirected to this window'),
        )
        .toBe(true);
    } finally {
      await app.close();
      await removeHome(home);
    }
  });

  test('the window reopens where it was left', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    try {
      const first = await launchDesktop(executable, home);
      await first.app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows()[0]?.setBounds({ x: 60, y: 80, width: 1000, height: 680 }),
      );
      await first.app.close();
      const saved = JSON.parse(await readFile(path.join(home, 'window-state.json'), 'utf8')) as { bounds: unknown };
      expect(saved.bounds).toEqual({ x: 60, y: 80, width: 1000, height: 680 });
      const second = await launchDesktop(executable, home);
      const bounds = await second.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getBounds());
      expect(bounds).toEqual({ x: 60, y: 80, width: 1000, height: 680 });
      await second.app.close();
    } finally {
      await removeHome(home);
    }
  });

  test('a renderer crash reloads the window while the core keeps running', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app, window } = await launchDesktop(executable, home);
    try {
      const appInfo = (): Promise<AppInfo> =>
        window.evaluate(async () => {
          const result = await (
            globalThis as unknown as {
              vigil: { call(channel: string, payload: unknown): Promise<{ ok: boolean; value: AppInfo }> };
            }
          ).vigil.call('app:info', {});
          return result.value;
        });
      const before = await appInfo();
      await app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows()[0]?.webContents.forcefullyCrashRenderer(),
      );
      await expect
        .poll(async () => (await desktopLog(home)).some((record) => record.message.startsWith('reloading the window')))
        .toBe(true);
      await expect(window.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
      expect(await appInfo()).toEqual(before);
      expect(app.process().exitCode).toBeNull();
    } finally {
      await app.close();
      await removeHome(home);
    }
  });

  test('serves agents like vigil serve, and quitting releases serve.json after the core stops', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const { app } = await launchDesktop(executable, home);
    const serveInfo = path.join(home, 'serve.json');
    try {
      await expect.poll(() => exists(serveInfo)).toBe(true);
      const info = JSON.parse(await readFile(serveInfo, 'utf8')) as { pid: number; port: number; token: string };
      expect(info.pid).toBe(app.process().pid);
      expect((await fetch(`http://127.0.0.1:${info.port}/mcp`)).status).toBe(401);
      expect(
        await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('open-logs-folder')?.label),
      ).toBe('Open Logs Folder');
    } finally {
      await app.close();
    }
    expect(await exists(serveInfo)).toBe(false);
    const messages = (await desktopLog(home)).map((record) => record.message);
    expect(messages).toContain('desktop app stopping');
    expect(messages).not.toContain('shutdown did not finish in time; quitting anyway');
    await removeHome(home);
  });

  test('stays usable when another Vigil already serves agents for the data folder', async () => {
    const executable = electronOrSkip();
    const home = await freshHome();
    const serve = spawn(process.execPath, [builtCli, 'serve', '--port', '0'], {
      env: { ...process.env, VIGIL_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        serve.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          if (/^url: /m.test(output)) resolve();
        });
        serve.once('exit', (code) => reject(new Error(`vigil serve exited (${String(code)}): ${output}`)));
      });
      const { app } = await launchDesktop(executable, home);
      await expect
        .poll(async () => (await desktopLog(home)).some((record) => record.message === 'agent gateway not started'))
        .toBe(true);
      const info = JSON.parse(await readFile(path.join(home, 'serve.json'), 'utf8')) as { pid: number };
      expect(info.pid).toBe(serve.pid);
      await app.close();
    } finally {
      serve.kill('SIGKILL');
      await removeHome(home);
    }
  });
});
