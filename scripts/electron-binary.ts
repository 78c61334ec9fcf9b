import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Chromium to drive in end-to-end tests: $CHROMIUM_PATH, else Debian's /usr/bin/chromium (never
 * a download). Otherwise why there is none and the remedy: without it Playwright would look for its
 * own download and report a confusing missing file.
 */
export function findChromium(): { readonly path: string } | { readonly missing: string } {
  const fromEnv = process.env['CHROMIUM_PATH'];
  const isFromEnv = fromEnv !== undefined && fromEnv !== '';
  const candidates = isFromEnv ? [fromEnv] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found !== undefined) return { path: found };
  const where = isFromEnv
    ? `CHROMIUM_PATH is set to ${fromEnv}, which does not exist`
    : 'neither /usr/bin/chromium nor /usr/bin/chromium-browser exists and CHROMIUM_PATH is not set';
  return {
    missing:
      `No Chromium for the end-to-end tests: ${where}. Install Debian's chromium (apt-get install -y chromium), ` +
      "or set CHROMIUM_PATH to a Chromium binary. (Playwright's own browser download is not used: it cannot be fetched here.)",
  };
}

/** The path of the Chromium `findChromium` finds, for `launch({ executablePath })`; undefined when there is none. */
export function chromiumExecutable(): string | undefined {
  const chromium = findChromium();
  return 'path' in chromium ? chromium.path : undefined;
}

/** The version of the installed electron package (the runtime it fetches), if it is installed. */
export function electronPackageVersion(root: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/** "an Electron 45.4.1 binary", or "an Electron binary" where the package is not installed. */
export function electronBinaryPhrase(root: string): string {
  const version = electronPackageVersion(root);
  return version === undefined ? 'an Electron binary' : `an Electron ${version} binary`;
}

/**
 * The Electron binary, if one is present without downloading: $ELECTRON_OVERRIDE_DIST_PATH (in
 * `env`), or the one the electron package already fetched (node_modules/electron/path.txt + dist/).
 * Otherwise the reason there is none.
 */
export function electronExecutable(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): { readonly path: string } | { readonly missing: string } {
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  const packageDir = path.join(root, 'node_modules/electron');
  let executable: string | undefined;
  if (override !== undefined && override !== '') {
    executable = path.join(override, process.platform === 'win32' ? 'electron.exe' : 'electron');
  } else if (existsSync(path.join(packageDir, 'path.txt'))) {
    executable = path.join(packageDir, 'dist', readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim());
  }
  if (executable !== undefined && existsSync(executable)) return { path: executable };
  return {
    missing:
      'no Electron binary on this machine (the electron package downloads its runtime on first use, which needs access to GitHub); ' +
      `set ELECTRON_OVERRIDE_DIST_PATH to a folder holding ${electronBinaryPhrase(root)} to run these specs in Electron.`,
  };
}
