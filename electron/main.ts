import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { createCore, type Core } from './core/create-core';
import { resolveVigilHome, vigilPaths } from './core/vigil-home';
import { createFileLogger } from './logging/logger';
import { handleAppProtocol, registerAppSchemePrivileges } from './shell/app-protocol';
import { registerIpcBridge } from './shell/ipc-bridge';
import { createMainWindow, denyAllPermissions } from './shell/main-window';

/** The desktop composition root: builds the core, relays the contract over IPC, opens the window. */
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, '../renderer');
const preloadPath = path.resolve(here, '../preload/preload.cjs');

registerAppSchemePrivileges();
let core: Core | undefined;

async function start(): Promise<void> {
  await app.whenReady();
  const home = resolveVigilHome(process.env, app.getPath('userData'));
  const logger = createFileLogger({ directory: vigilPaths(home).logs });
  core = await createCore({ home, logger });
  denyAllPermissions();
  handleAppProtocol(rendererDir);
  registerIpcBridge(core.router, core.events);
  createMainWindow(preloadPath);
}

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (core === undefined) return;
  event.preventDefault();
  const closing = core;
  core = undefined;
  void closing.dispose().finally(() => app.quit());
});

start().catch((error: unknown) => {
  process.stderr.write(`Vigil could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  app.exit(1);
});
