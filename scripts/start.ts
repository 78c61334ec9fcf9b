import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainDesktopUnavailable, type DesktopUnavailable } from './desktop-unavailable';
import { electronBinaryPhrase, electronExecutable, electronPackageVersion } from './electron-binary';

/**
 * `npm start`: builds, then opens the desktop app. Where the Electron runtime cannot be used (it is
 * downloaded on first use, which fails offline; or there is no display), says why in one paragraph
 * and starts `vigil serve` instead, which hosts the same core and UI for the browser.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How long the first-start download may take (VIGIL_ELECTRON_FETCH_TIMEOUT, seconds). */
const fetchTimeoutSeconds = Number(process.env['VIGIL_ELECTRON_FETCH_TIMEOUT'] ?? '') || 90;
/** How often the download reports that it is still going. */
const progressEverySeconds = 10;

function run(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

/** Runs the electron package's installer, bounded and with progress; undefined when it fetched the runtime. */
async function fetchElectron(): Promise<DesktopUnavailable | undefined> {
  const version = electronPackageVersion(root);
  process.stdout.write(
    `Fetching the Electron${version === undefined ? '' : ` ${version}`} runtime (first start only; at most ${fetchTimeoutSeconds} s)…\n`,
  );
  const child = spawn(process.execPath, [path.join(root, 'node_modules/electron/install.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const startedAt = Date.now();
  const bound = { hasPassed: false };
  const progress = setInterval(() => {
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    process.stdout.write(`  still fetching the Electron runtime (${seconds} s of at most ${fetchTimeoutSeconds} s; Ctrl+C to stop)…\n`);
  }, progressEverySeconds * 1000);
  const deadline = setTimeout(() => {
    bound.hasPassed = true;
    child.kill('SIGKILL');
  }, fetchTimeoutSeconds * 1000);
  const stop = (): void => {
    child.kill('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', (error) => {
      output += `${error.message}\n`;
      resolve([1, null]);
    });
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  clearInterval(progress);
  clearTimeout(deadline);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  if (bound.hasPassed) return { kind: 'fetch-timed-out', seconds: fetchTimeoutSeconds };
  if (code === 0) return undefined;
  const firstLine = output.split('\n').find((line) => line.trim() !== '')?.trim();
  const detail =
    firstLine ?? (code !== null ? `its installer exited with code ${code}` : `its installer was stopped by ${String(signal)}`);
  return { kind: 'fetch-failed', detail };
}

/** Why the desktop window cannot open here, or the Electron executable to open it with. */
async function desktopRuntime(): Promise<{ readonly path: string } | { readonly unavailable: DesktopUnavailable }> {
  let electron = electronExecutable(root);
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if ('missing' in electron) {
    // A folder named on purpose is not replaced by a download into node_modules.
    if (override !== undefined && override !== '') return { unavailable: { kind: 'override-empty', folder: override } };
    const failure = await fetchElectron();
    if (failure !== undefined) return { unavailable: failure };
    electron = electronExecutable(root);
    if ('missing' in electron) return { unavailable: { kind: 'fetch-failed', detail: 'the installer finished, but no executable is where it said' } };
  }
  const hasDisplay = process.platform !== 'linux' || Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']);
  return hasDisplay ? electron : { unavailable: { kind: 'no-display' } };
}

async function main(): Promise<void> {
  if (run(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']) !== 0) {
    process.stderr.write('npm start: the build failed (see above), so there is nothing to start.\n');
    process.exitCode = 1;
    return;
  }
  const extraArgs = process.argv.slice(2);
  const runtime = await desktopRuntime();
  if ('path' in runtime) {
    const child = spawn(runtime.path, [path.join(root, 'out/main/main.js'), ...extraArgs], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => (process.exitCode = code ?? 0));
    return;
  }
  process.stdout.write(explainDesktopUnavailable(runtime.unavailable, electronBinaryPhrase(root)));
  const serve = spawn(process.execPath, [path.join(root, 'out/main/cli.js'), 'serve', ...extraArgs], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => serve.kill(signal));
  serve.on('exit', (code) => (process.exitCode = code ?? 0));
}

void main();
