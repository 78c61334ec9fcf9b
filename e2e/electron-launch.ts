import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron, test, type ElectronApplication, type Page } from '@playwright/test';
import { electronExecutable } from '../scripts/electron-binary';
import { repoRoot } from './fixtures/vigil-fixture';

/** The built desktop entry point (`npm run build` runs before the end-to-end tests). */
export const desktopEntry = path.join(repoRoot, 'out/main/main.js');

/** The Electron binary, or a skip of the current test with the reason (offline machines have none). */
export function electronOrSkip(): string {
  test.skip(test.info().project.name !== 'electron', 'Electron-only behaviour; runs in the "electron" project');
  const electron = electronExecutable(repoRoot);
  if ('missing' in electron) test.skip(true, electron.missing);
  return 'path' in electron ? electron.path : '';
}

/** A fresh data folder for one test, removed afterwards. */
export async function freshHome(): Promise<string> {
  const home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vigil-e2e-desktop-')));
  await test.info().attach('VIGIL_HOME', { body: home });
  return home;
}

/** Removes a data folder made by `freshHome`. */
export function removeHome(home: string): Promise<void> {
  return rm(home, { recursive: true, force: true });
}

/** Starts the desktop app on `home` and waits for its window to connect to the core. */
export async function launchDesktop(
  executablePath: string,
  home: string,
): Promise<{ app: ElectronApplication; window: Page }> {
  const app = await _electron.launch({
    executablePath,
    args: [desktopEntry],
    env: { ...process.env, VIGIL_HOME: home },
  });
  const window = await app.firstWindow();
  await window.getByTestId('connection').and(window.locator('[data-state="connected"]')).waitFor();
  return { app, window };
}

/** The desktop app's log records so far. */
export async function desktopLog(
  home: string,
): Promise<readonly { readonly message: string; readonly [field: string]: unknown }[]> {
  const text = await readFile(path.join(home, 'logs', 'desktop.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { message: string });
}
