import { spawn } from 'node:child_process';
import { access, mkdtemp, mkdir, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { VigilAgentClient } from '../agent-client/vigil-agent-client';
import { chromiumExecutable } from '../scripts/electron-binary';
import { formatMs, formatRatio, summarize, type BenchArea, type BenchTable, type Timing } from './harness';
import {
  installLoadProbes,
  readBaselineRendered,
  readProbes,
  scrollFrames,
  watchNewRows,
  watchSessionCards,
  type BenchProbes,
} from './ui-page-probes';
import { seededDir, seededEntry, startSeededServer, type SeededServer } from './ui-seeded-server';
import { agentCredentialFor } from '../electron/test-support/agent-credential';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rendererDir = path.join(root, 'out/renderer');
const cli = path.join(root, 'out/main/cli.js');
const timelineSize = 10_000;

async function ensureBuilt(log: (line: string) => void): Promise<void> {
  const built = await Promise.all([access(path.join(rendererDir, 'index.html')), access(cli)]).then(
    () => true,
    () => false,
  );
  if (built) return;
  log('building the app (out/ is missing)…');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      { cwd: root, stdio: 'ignore' },
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`electron-vite build exited ${String(code)}`)),
    );
  });
}

function probes(page: Page): Promise<BenchProbes> {
  return page.evaluate(readProbes);
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 2000; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function framesRow(label: string, frames: readonly number[]): string[] {
  const stats = summarize(frames);
  const slow = frames.filter((frame) => frame > 1000 / 60 + 1).length;
  return [label, formatMs(stats.median), formatMs(stats.p99), `${((slow / frames.length) * 100).toFixed(1)} %`];
}

/** Opens the seeded timeline in a fresh page and times it; returns the page for further probes. */
async function loadTimeline(
  browser: Browser,
  url: string,
): Promise<{ page: Page; connected: number; firstRows: number; allRows: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(installLoadProbes, timelineSize);
  // The seeded server checks no credential, but the page connects only with one in its fragment.
  await page.goto(`${url}#/timeline/${encodeURIComponent(seededDir)}&token=bench-page-credential-000000`);
  const all = await waitFor(async () => {
    const value = (await probes(page)).allRows;
    return value === undefined || value < 0 ? undefined : value;
  }, 'the whole timeline');
  const recorded = await probes(page);
  return {
    page,
    connected: recorded.connected ?? Number.NaN,
    firstRows: recorded.firstRows ?? Number.NaN,
    allRows: all,
  };
}

/** Every sample of the first-render and scrolling runs: the timeline's, and the plain list's beside it. */
interface LoadSamples {
  readonly connected: readonly number[];
  readonly first: readonly number[];
  readonly all: readonly number[];
  readonly baseline: readonly number[];
  readonly frames: readonly number[];
  readonly baselineFrames: readonly number[];
  readonly domRows: number;
  readonly baselineRows: number;
}

/** The plain list with every row in the DOM: its render time, its scrolling frames and its row count. */
async function measurePlainList(
  browser: Browser,
  url: string,
  isQuick: boolean,
): Promise<{ rendered: number; frames: number[]; rows: number }> {
  const plain = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await plain.goto(`${url}bench/baseline.html`);
  const rendered = await waitFor(() => plain.evaluate(readBaselineRendered), 'the plain list');
  const frames = await plain.evaluate(scrollFrames, [460, isQuick ? 30 : 120] as const);
  const rows = await plain.locator('[data-testid="timeline-entry"]').count();
  await plain.close();
  return { rendered, frames, rows };
}

/** First render and scrolling, run by run: the timeline, then the plain list. */
async function measureLoads(
  browser: Browser,
  url: string,
  runs: number,
  isQuick: boolean,
  log: (line: string) => void,
): Promise<LoadSamples> {
  const connected: number[] = [];
  const first: number[] = [];
  const all: number[] = [];
  const baseline: number[] = [];
  const frames: number[] = [];
  const baselineFrames: number[] = [];
  let domRows = 0;
  let baselineRows = 0;
  for (let index = 0; index < runs; index += 1) {
    const loaded = await loadTimeline(browser, url);
    connected.push(loaded.connected);
    first.push(loaded.firstRows);
    all.push(loaded.allRows);
    frames.push(...(await loaded.page.evaluate(scrollFrames, [460, isQuick ? 30 : 120] as const)));
    domRows = await loaded.page.locator('[data-testid="timeline-entry"]').count();
    await loaded.page.close();

    const plain = await measurePlainList(browser, url, isQuick);
    baseline.push(plain.rendered);
    baselineFrames.push(...plain.frames);
    baselineRows = plain.rows;
    log(
      `run ${index + 1}/${runs}: first rows ${formatMs(loaded.firstRows)}, all ${formatMs(loaded.allRows)}, plain list ${formatMs(baseline.at(-1) ?? 0)}`,
    );
  }
  return { connected, first, all, baseline, frames, baselineFrames, domRows, baselineRows };
}

/** Event to screen: checkpoints:created from the (seeded) core to a row on screen, and to the page's socket. */
async function measureEventToScreen(
  browser: Browser,
  seeded: SeededServer,
  events: number,
): Promise<{ onScreen: number[]; onSocket: number[] }> {
  const { page } = await loadTimeline(browser, seeded.url);
  await page.evaluate(watchNewRows);
  const onScreen: number[] = [];
  const onSocket: number[] = [];
  for (let index = 0; index < events; index += 1) {
    const entry = seededEntry(index * 8, 0);
    const sentAt = seeded.emit('checkpoints:created', entry);
    const seen = await waitFor(async () => (await probes(page)).seen[entry.id], 'the new row');
    const arrived = (await probes(page)).arrived[entry.id] ?? Number.NaN;
    onScreen.push(seen - sentAt);
    onSocket.push(arrived - sentAt);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await page.close();
  return { onScreen, onSocket };
}

/** How the UI was measured, shown above the tables. */
function uiMethod(runs: number): string {
  return [
    `Debian Chromium (headless, no GPU) driven by Playwright at 1280×800 against the built renderer (out/renderer). The timeline is served by a seeded core:`,
    `a small server in bench/ui-seeded-server.ts that serves the renderer with the product's CSP and answers the contract over /ws from ${timelineSize.toLocaleString('en-US')} generated checkpoints (8 sessions),`,
    `every answer checked by the contract's schemas. A seeded core rather than a real \`vigil serve\`: 10,000 real checkpoints of one directory (checkpoints.maxSnapshots raised in config.json) take minutes to build for every run.`,
    `Baseline: the same checkpoints as a plain list with every row in the DOM (what the timeline would cost without virtualization), same row size and container.`,
    `First render: navigation start → the first timeline rows painted; all: → every checkpoint loaded (300, then pages of 5,000) and the list repainted. Scrolling: 460 px per frame, frame-to-frame times from requestAnimationFrame.`,
    `Event to screen: the wall-clock time from the server writing the event frame to the row painted (next animation frame); and, end to end, an agent's write_file through a real \`vigil serve\` (JSON-RPC gateway) from the core's updatedAt to the session card repainted.`,
    `${runs} runs, medians. The machine is shared with other engineers' builds and tests: expect noise.`,
  ].join(' ');
}

/** The first-render table: the timeline against the plain list. */
function firstRenderTable(loads: LoadSamples, runs: number): BenchTable {
  const firstStats = summarize(loads.first);
  const allStats = summarize(loads.all);
  const baselineStats = summarize(loads.baseline);
  return {
    caption: `Time to first render of a ${timelineSize.toLocaleString('en-US')}-checkpoint timeline (median of ${runs})`,
    columns: ['measure', 'Vigil timeline (virtualized)', 'plain list (all rows in the DOM)', 'ratio'],
    rows: [
      ['the app shell connected to its core (for reference)', formatMs(summarize(loads.connected).median), '—', '—'],
      ['first rows on screen', formatMs(firstStats.median), '—', '—'],
      [
        `all ${timelineSize.toLocaleString('en-US')} loaded and on screen`,
        formatMs(allStats.median),
        formatMs(baselineStats.median),
        formatRatio(allStats.median, baselineStats.median),
      ],
      [
        'row elements in the DOM afterwards',
        String(loads.domRows),
        String(loads.baselineRows),
        formatRatio(loads.domRows, loads.baselineRows),
      ],
    ],
  };
}

/** The event-to-screen table: the socket as the baseline, the timeline row, and the session card end to end. */
function eventTable(onSocket: readonly number[], onScreen: readonly number[], live: readonly number[]): BenchTable {
  const screenStats = summarize(onScreen);
  const liveStats: Timing = summarize(live);
  return {
    caption: 'Event to screen (wall clock, same machine)',
    columns: ['event', 'median', 'p99', 'samples'],
    rows: [
      [
        'checkpoints:created → frame on the page’s WebSocket (baseline)',
        formatMs(summarize(onSocket).median),
        formatMs(summarize(onSocket).p99),
        String(onSocket.length),
      ],
      [
        'checkpoints:created → timeline row painted',
        formatMs(screenStats.median),
        formatMs(screenStats.p99),
        String(onScreen.length),
      ],
      [
        'agent write_file via vigil serve → session card painted',
        formatMs(liveStats.median),
        formatMs(liveStats.p99),
        String(live.length),
      ],
    ],
  };
}

/** The UI: a 10,000-checkpoint timeline's first render and scrolling, and how fast events reach the screen. */
export const run: BenchArea = async (context) => {
  const { isQuick } = context;
  const log = (line: string): void => context.log(line);
  await ensureBuilt(log);
  const runs = isQuick ? 2 : 7;
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const seeded = await startSeededServer(rendererDir, timelineSize);
  try {
    const loads = await measureLoads(browser, seeded.url, runs, isQuick, log);
    const { onScreen, onSocket } = await measureEventToScreen(browser, seeded, isQuick ? 10 : 60);
    const live = await sessionLatency(browser, isQuick ? 5 : 40);
    const firstStats = summarize(loads.first);
    const screenStats = summarize(onScreen);
    const liveStats: Timing = summarize(live);
    const frameStats = summarize(loads.frames);
    return {
      title: 'UI: timeline of 10,000 checkpoints, scrolling, event to screen',
      method: uiMethod(runs),
      tables: [
        firstRenderTable(loads, runs),
        {
          caption: 'Frame times while scrolling the whole timeline (460 px per frame)',
          columns: ['list', 'median frame', 'p99 frame', 'frames over 17.7 ms'],
          rows: [
            framesRow('Vigil timeline (virtualized)', loads.frames),
            framesRow('plain list (baseline)', loads.baselineFrames),
          ],
        },
        eventTable(onSocket, onScreen, live),
      ],
      verdicts: [
        `first rows of a 10,000-checkpoint timeline under 1 s: ${formatMs(firstStats.median)} (${firstStats.median < 1000 ? 'met' : 'NOT met'})`,
        `smooth scrolling, median frame within one 60 Hz frame: ${formatMs(frameStats.median)} (${frameStats.median <= 1000 / 60 + 1 ? 'met' : 'NOT met'})`,
        `new events on screen within 100 ms (issue #7): checkpoint ${formatMs(screenStats.median)} median / ${formatMs(screenStats.p99)} p99, session ${formatMs(liveStats.median)} median / ${formatMs(liveStats.p99)} p99 (${Math.max(screenStats.median, liveStats.median) < 100 ? 'met' : 'NOT met'})`,
      ],
    };
  } finally {
    await seeded.close();
    await browser.close();
  }
};

/** End to end through a real `vigil serve`: an agent's tool calls, each timed from the core's update to the card on screen. */
async function sessionLatency(browser: Browser, calls: number): Promise<number[]> {
  const home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-ui-')));
  const workspace = path.join(home, 'ws');
  await mkdir(workspace);
  const server = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
    env: { ...process.env, VIGIL_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const match = /^url: (\S+)$/m.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      server.once('exit', (code) => reject(new Error(`vigil serve exited ${String(code)}: ${output}`)));
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(installLoadProbes, 0);
    await page.goto(url);
    const port = new URL(url).port;
    const token = await agentCredentialFor(home, 'bench');
    const client = await VigilAgentClient.connect({ url: `http://127.0.0.1:${port}/`, token, reconnect: false });
    try {
      const session = await client.openSession({ agent: 'bench', roots: [workspace] });
      await page.locator(`[data-session-id="${session.id}"]`).waitFor();
      await page.evaluate(watchSessionCards);
      const latencies: number[] = [];
      for (let index = 1; index <= calls; index += 1) {
        await session.callTool('write_file', {
          path: path.join(workspace, `f${index % 5}.txt`),
          content: `${index}\n`,
        });
        const seen = await waitFor(async () => (await probes(page)).seen[String(index)], `card update ${index}`);
        const happened = (await probes(page)).arrived[String(index)] ?? Number.NaN;
        latencies.push(seen - happened);
      }
      return latencies;
    } finally {
      await client.close();
      await page.close();
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(home, { recursive: true, force: true });
  }
}
