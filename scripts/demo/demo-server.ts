import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { vigilPaths } from '../../electron/lib';
import { AgentCredentialStore, readLiveServeInfo } from '../../electron/server';
import { withoutCredential } from '../../shared/ui-credential';

/** The demo agents' credential, as "vigil connect --credential demo" would give it. */
async function demoCredential(home: string): Promise<string> {
  return (await new AgentCredentialStore(vigilPaths(home).agentCredentials).issue('demo')).secret;
}

/** A Vigil server the demo talks to: one it found running, or one it started. */
export interface DemoServer {
  /** The URL with the page's credential in its fragment, to open in a browser (a found server's: its address alone). */
  readonly url: string;
  readonly baseUrl: string;
  /** The demo agents' own agent credential ("demo"): agents never get the UI's. */
  readonly agentToken: string;
  /** Whether the demo started it (and so stops it). */
  readonly isOwn: boolean;
  stop(): Promise<void>;
}

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Builds the UI when it is missing, so `vigil serve` has a page to show. */
export function ensureUiBuilt(log: (line: string) => void): void {
  if (existsSync(path.join(repoRoot, 'out/renderer/index.html'))) return;
  log('Building the UI first (once)…');
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) log('The UI build failed; the demo runs anyway and the server serves only the API.');
}

async function waitForServeInfo(
  home: string,
  child: ChildProcess,
): Promise<NonNullable<Awaited<ReturnType<typeof readLiveServeInfo>>>> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`vigil serve exited with code ${child.exitCode}; see its output above.`);
    const info = await readLiveServeInfo(vigilPaths(home).serveInfo);
    if (info !== undefined && info.pid === child.pid && info.url !== null) return info;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `url:` line `vigil serve` prints: the only place the page's credential appears. Its output is drained after. */
function printedUrl(child: ChildProcess): Promise<string> {
  const url = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^url: (\S+)$/mu.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error('vigil serve exited before printing its URL; see its output above.')));
  });
  // A server that lost the race for its port exits: that rejection is awaited only when it matters.
  url.catch(() => undefined);
  return url;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Connects to the `vigil serve` running on `home`, or starts one (its output goes to ours). */
export async function connectOrStartServer(
  home: string,
  port: number,
  log: (line: string) => void,
): Promise<DemoServer> {
  const live = await readLiveServeInfo(vigilPaths(home).serveInfo);
  if (live !== undefined && live.url !== null) {
    const baseUrl = withoutCredential(live.url);
    log(
      `Found Vigil running (pid ${live.pid}) on ${baseUrl}; the agents connect to it. ` +
        'Open the URL it printed when it started: the page credential in its #token= is stored nowhere else.',
    );
    return {
      url: baseUrl,
      baseUrl,
      agentToken: await demoCredential(home),
      isOwn: false,
      stop: () => Promise.resolve(),
    };
  }
  ensureUiBuilt(log);
  const start = (chosenPort: number): ChildProcess =>
    spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'electron/cli/vigil.ts'), 'serve', '--port', String(chosenPort)],
      {
        cwd: repoRoot,
        env: { ...process.env, VIGIL_HOME: home },
        stdio: ['ignore', 'pipe', 'inherit'],
        // Its own process group: Ctrl+C reaches the demo, which closes the agents' sessions and then stops it.
        detached: true,
      },
    );
  let child = start(port);
  let printed = printedUrl(child);
  try {
    await waitForServeInfo(home, child);
  } catch {
    log(`Port ${port} is busy; letting vigil serve pick a free one.`);
    child = start(0);
    printed = printedUrl(child);
    await waitForServeInfo(home, child);
  }
  const own = child;
  const url = await printed;
  return {
    url,
    baseUrl: withoutCredential(url),
    agentToken: await demoCredential(home),
    isOwn: true,
    stop: async () => {
      if (own.exitCode === null) own.kill('SIGTERM');
      await exited(own);
    },
  };
}
