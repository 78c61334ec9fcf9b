import { execFile } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { builtCli, expect, startServer, stopServer, test } from './fixtures/vigil-fixture';

/** The built `vigil` with background cores allowed (the e2e run forbids them by default). */
function vigilCli(
  home: string,
  args: readonly string[],
): Promise<{ readonly stdout: string; readonly stderr: string }> {
  return promisify(execFile)(process.execPath, [builtCli, ...args], {
    env: { ...process.env, VIGIL_HOME: home, VIGIL_NO_CORE: '0' },
  });
}

/** Whether a process still runs (an exited one waiting to be reaped counts as gone). */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return false;
  return !/^\d+ \(.*\) [ZX] /s.test(stat);
}

/** The timeline rows whose reason is exactly `reason`. */
function rowsWithReason(page: Page, reason: string) {
  return page
    .getByTestId('timeline-list')
    .locator('[data-testid="timeline-entry"]', { has: page.locator(`[data-testid="row-reason"][title="${reason}"]`) });
}

test('vigil serve takes the place of the background core a command started: the UI shows its work, and commands relay to the server', async ({
  vigil,
}, testInfo) => {
  test.skip(vigil.kind !== 'served', 'the served UI in Chromium; the desktop app stops a background core the same way');
  test.skip(process.platform !== 'linux', 'reads /proc to see the background core go');
  const ws = vigil.workspace;
  await writeFile(path.join(ws, 'notes.txt'), 'one\n');
  const first = await vigilCli(vigil.home, ['checkpoint', ws, '--reason', 'through the background core']);
  expect(first.stderr).toBe('');
  const background = JSON.parse(await readFile(path.join(vigil.home, 'serve.json'), 'utf8')) as {
    pid: number;
    background?: boolean;
  };
  expect(background.background).toBe(true);
  expect(await isRunning(background.pid)).toBe(true);

  const server = await startServer(vigil.home);
  try {
    expect(await isRunning(background.pid)).toBe(false);
    const serveJson = JSON.parse(await readFile(path.join(vigil.home, 'serve.json'), 'utf8')) as {
      pid: number;
      background?: boolean;
    };
    expect(serveJson).toMatchObject({ pid: server.child.pid });
    expect(serveJson.background).toBeUndefined();

    // Launched here, after the skips: the `browser` fixture would launch Playwright's own
    // Chromium before them, in the electron project too, where none is installed.
    const browser = await chromium.launch(testInfo.project.use.launchOptions);
    const page = await browser.newPage();
    await page.goto(server.url);
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-timeline').click();
    await expect(rowsWithReason(page, 'through the background core')).toHaveCount(1);

    // A command now relays to the server (no new background core): its checkpoint shows live.
    await appendFile(path.join(ws, 'notes.txt'), 'two\n');
    const second = await vigilCli(vigil.home, ['checkpoint', ws, '--reason', 'through vigil serve']);
    expect(second.stderr).toBe('');
    await expect(rowsWithReason(page, 'through vigil serve')).toHaveCount(1);
    expect((await vigilCli(vigil.home, ['core', 'status'])).stdout).toContain(
      `The desktop app or "vigil serve" (pid ${String(server.child.pid)}`,
    );
    await browser.close();
  } finally {
    await stopServer(server);
  }
});
