/**
 * Code that runs inside the page (passed to Playwright as functions, so it is type-checked here
 * and serialized there). Each function is self-contained: no closures over Node values. The node
 * project has no DOM library, so the few browser globals the probes use are declared below, in
 * this module only.
 */

interface PageNode {
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageNode | null;
  scrollTop: number;
}

interface PageMutation {
  readonly target: PageNode;
  readonly attributeName: string | null;
  readonly addedNodes: Iterable<PageNode>;
}

interface PageSocket {
  addEventListener(type: 'message', listener: (message: { readonly data: unknown }) => void): void;
}

type PageSocketClass = new (url: string | URL, protocols?: string | string[]) => PageSocket;

declare const window: { WebSocket: PageSocketClass; __bench: BenchProbes; __baselineRendered?: number };
declare const document: PageNode;
declare const performance: { now(): number };
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare class MutationObserver {
  constructor(callback: (records: readonly PageMutation[]) => void);
  observe(
    target: PageNode,
    options: { subtree?: boolean; childList?: boolean; attributes?: boolean; attributeFilter?: string[] },
  ): void;
  disconnect(): void;
}

/** What the probes record in the page. */
export interface BenchProbes {
  /** The app shell connected to its core (the connection indicator says so). */
  connected: number | undefined;
  firstRows: number | undefined;
  allRows: number | undefined;
  /** Wall-clock ms when a watched key reached the screen (after the next frame). */
  seen: Record<string, number>;
  /** Wall-clock ms when an event's frame arrived on the WebSocket, by checkpoint id. */
  arrived: Record<string, number>;
}

/** Installed before the app loads: times the first timeline rows and the full 10,000, and WebSocket arrivals. */
export function installLoadProbes(expected: number): void {
  const probes: BenchProbes = { connected: undefined, firstRows: undefined, allRows: undefined, seen: {}, arrived: {} };
  window.__bench = probes;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (message) => {
        if (typeof message.data !== 'string' || !message.data.includes('"checkpoints:created"')) return;
        const frame = JSON.parse(message.data) as { payload?: { id?: string } };
        if (frame.payload?.id !== undefined) probes.arrived[frame.payload.id] = Date.now();
      });
    }
  };
  const observer = new MutationObserver(() => {
    if (
      probes.connected === undefined &&
      document.querySelector('[data-testid="connection"][data-state="connected"]') !== null
    ) {
      probes.connected = -1;
      requestAnimationFrame(() => (probes.connected = performance.now()));
    }
    const list = document.querySelector('[data-testid="timeline-list"]');
    if (list === null) return;
    if (probes.firstRows === undefined && list.querySelector('[data-testid="timeline-entry"]') !== null) {
      probes.firstRows = -1;
      requestAnimationFrame(() => (probes.firstRows = performance.now()));
    }
    if (probes.allRows === undefined && list.getAttribute('data-count') === String(expected)) {
      probes.allRows = -1;
      observer.disconnect();
      requestAnimationFrame(() => (probes.allRows = performance.now()));
    }
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-count', 'data-state'],
  });
}

/** Scrolls the timeline list by `step` pixels per frame for `frames` frames; returns each frame's duration. */
export async function scrollFrames([step, frames]: readonly [number, number]): Promise<number[]> {
  const list = document.querySelector('[data-testid="timeline-list"]');
  if (list === null) throw new Error('no timeline list');
  list.scrollTop = 0;
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const durations: number[] = [];
  let last = performance.now();
  for (let frame = 0; frame < frames; frame += 1) {
    list.scrollTop += step;
    await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const now = performance.now();
    durations.push(now - last);
    last = now;
  }
  return durations;
}

/** Records when rows with new checkpoint ids appear in the timeline (after the next frame). */
export function watchNewRows(): void {
  const probes = window.__bench;
  const list = document.querySelector('[data-testid="timeline-list"]');
  if (list === null) throw new Error('no timeline list');
  list.scrollTop = 0;
  new MutationObserver((records) => {
    const at = Date.now();
    for (const record of records) {
      for (const node of record.addedNodes) {
        const id = typeof node.getAttribute === 'function' ? node.getAttribute('data-checkpoint-id') : null;
        if (id !== null && probes.seen[id] === undefined) {
          probes.seen[id] = at;
          requestAnimationFrame(() => (probes.seen[id] = Date.now()));
        }
      }
    }
  }).observe(list, { subtree: true, childList: true });
}

/** Records, per session card update, when it reached the screen and when the core says it happened. */
export function watchSessionCards(): void {
  const probes = window.__bench;
  new MutationObserver((records) => {
    for (const record of records) {
      const card = record.target;
      if (record.attributeName !== 'data-calls') continue;
      const calls = card.getAttribute('data-calls') ?? '';
      const updatedAt = Date.parse(card.getAttribute('data-updated-at') ?? '');
      requestAnimationFrame(() => {
        probes.seen[calls] = Date.now();
        probes.arrived[calls] = updatedAt;
      });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-calls'] });
}

/** The probes' records. */
export function readProbes(): BenchProbes {
  return window.__bench;
}

/** How long the baseline page took to render its list, once it has. */
export function readBaselineRendered(): number | undefined {
  return window.__baselineRendered;
}
