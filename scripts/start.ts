import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopRuntime } from './desktop-runtime';
import { explainDesktopUnavailable } from './desktop-unavailable';
import { electronBinaryPhrase } from './electron-binary';

/**
 * `npm start`: builds, then opens the desktop app. Where the Electron runtime cannot be used (it is
 * downloaded on first use, which fails offline; or there is no display), says why in one paragraph
 * and starts `vigil serve` instead, which hosts the same core and UI for the browser.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

async function main(): Promise<void> {
  if (run(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']) !== 0) {
    process.stderr.write('npm start: the build failed (see above), so there is nothing to start.\n');
    process.exitCode = 1;
    return;
  }
  const extraArgs = process.argv.slice(2);
  const runtime = await desktopRuntime(root, process.env);
  if ('path' in runtime) {
    const child = spawn(runtime.path, [path.join(root, 'out/main/main.js'), ...extraArgs], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('exit', (code) => (process.exitCode = code ?? 0));
    return;
  }
  process.stdout.write(explainDesktopUnavailable(runtime.unavailable, electronBinaryPhrase(root)));
  const serve = spawn(process.execPath, [path.join(root, 'out/main/cli.js'), 'serve', ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => serve.kill(signal));
  serve.on('exit', (code) => (process.exitCode = code ?? 0));
}

void main();
