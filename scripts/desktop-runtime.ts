import { spawn } from 'node:child_process';
import path from 'node:path';
import type { DesktopUnavailable } from './desktop-unavailable';
import { electronExecutable, electronPackageVersion } from './electron-binary';

/** How often the download reports that it is still going. */
const progressEverySeconds = 10;

/** Runs the electron package's installer with `env`, bounded and with progress; undefined when it fetched the runtime. */
async function fetchElectron(
  root: string,
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
): Promise<DesktopUnavailable | undefined> {
  // How long the first-start download may take (VIGIL_ELECTRON_FETCH_TIMEOUT, seconds).
  const fetchTimeoutSeconds = Number(env['VIGIL_ELECTRON_FETCH_TIMEOUT'] ?? '') || 90;
  const version = electronPackageVersion(root);
  write(
    `Fetching the Electron${version === undefined ? '' : ` ${version}`} runtime (first start only; at most ${fetchTimeoutSeconds} s)…\n`,
  );
  const child = spawn(process.execPath, [path.join(root, 'node_modules/electron/install.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const startedAt = Date.now();
  const bound = { hasPassed: false };
  const progress = setInterval(() => {
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    write(
      `  still fetching the Electron runtime (${seconds} s of at most ${fetchTimeoutSeconds} s; Ctrl+C to stop)…\n`,
    );
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
  const firstLine = output
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  const detail =
    firstLine ??
    (code !== null ? `its installer exited with code ${code}` : `its installer was stopped by ${String(signal)}`);
  return { kind: 'fetch-failed', detail };
}

/**
 * Why the desktop window cannot open for the repo at `root` under `env`, or the Electron executable
 * to open it with; fetches the runtime first when none is installed. `write` gets the progress lines.
 */
export async function desktopRuntime(
  root: string,
  env: NodeJS.ProcessEnv,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<{ readonly path: string } | { readonly unavailable: DesktopUnavailable }> {
  let electron = electronExecutable(root, env);
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if ('missing' in electron) {
    // A folder named on purpose is not replaced by a download into node_modules.
    if (override !== undefined && override !== '') return { unavailable: { kind: 'override-empty', folder: override } };
    const failure = await fetchElectron(root, env, write);
    if (failure !== undefined) return { unavailable: failure };
    electron = electronExecutable(root, env);
    if ('missing' in electron)
      return {
        unavailable: { kind: 'fetch-failed', detail: 'the installer finished, but no executable is where it said' },
      };
  }
  const hasDisplay = process.platform !== 'linux' || Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
  return hasDisplay ? electron : { unavailable: { kind: 'no-display' } };
}
