import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronExecutable } from './electron-binary';

/**
 * `npm start`: builds, then opens the desktop app. Where the Electron runtime cannot be obtained
 * (it is downloaded on first use; offline that fails), says why in one paragraph and starts
 * `vigil serve` instead, which hosts the same core and UI for the browser.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

function tryDownloadElectron(): string {
  process.stdout.write('Fetching the Electron runtime (first start only)…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/electron/install.js')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  const firstLine = output.split('\n').find((line) => line.trim() !== '') ?? `exit code ${String(result.status)}`;
  return result.status === 0 ? '' : firstLine.trim();
}

function main(): void {
  if (run(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']) !== 0) {
    process.stderr.write('npm start: the build failed (see above), so there is nothing to start.\n');
    process.exitCode = 1;
    return;
  }
  let electron = electronExecutable(root);
  let downloadError = '';
  if ('missing' in electron) {
    downloadError = tryDownloadElectron();
    electron = electronExecutable(root);
  }
  const extraArgs = process.argv.slice(2);
  const hasDisplay = process.platform !== 'linux' || Boolean(process.env['DISPLAY'] ?? process.env['WAYLAND_DISPLAY']);
  if ('path' in electron && !hasDisplay) {
    downloadError = 'the runtime is here, but there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set';
  } else if ('path' in electron) {
    const child = spawn(electron.path, [path.join(root, 'out/main/main.js'), ...extraArgs], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => (process.exitCode = code ?? 0));
    return;
  }
  process.stdout.write(
    [
      '',
      'Vigil cannot open its desktop window here: the Electron runtime is not usable on this machine',
      `(${downloadError || 'no network access'}). The electron package fetches its runtime from GitHub the first time`,
      'it runs, which needs network access, and a window needs a display. So Vigil is starting the same app for your browser:',
      '`vigil serve` runs the same core and the same UI on 127.0.0.1 — open the URL printed below (it carries a',
      'one-time access token). To get the desktop window, run `npm start` on a machine with network access, or set',
      'ELECTRON_OVERRIDE_DIST_PATH to a folder that holds an Electron 45 binary.',
      '',
    ].join('\n'),
  );
  const serve = spawn(process.execPath, [path.join(root, 'out/main/cli.js'), 'serve', ...extraArgs], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => serve.kill(signal));
  serve.on('exit', (code) => (process.exitCode = code ?? 0));
}

main();
