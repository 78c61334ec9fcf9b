import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  callSpecs,
  isCallName,
  type CallName,
  type CallResponse,
  type EventName,
  type EventPayload,
} from '../shared/contract';
import { clientFrameSchema, type ServerFrame } from '../shared/contract/wire';
import { contentSecurityPolicy, serveStaticFile } from '../electron/server';

/** One checkpoint of the seeded timeline. */
export type SeededEntry = CallResponse<'checkpoints:list'>['entries'][number];

/** The directory every seeded checkpoint belongs to. */
export const seededDir = '/bench/project';

const reasons = ['before write_file', 'before patch', 'before terminal: npm test', 'before memory add'] as const;
const tools = ['write_file', 'patch', 'terminal', 'memory'] as const;

/** A checkpoint with a fresh id, taken `secondsAgo` before `now`, by one of eight sessions. */
export function seededEntry(index: number, secondsAgo: number, now = Date.now()): SeededEntry {
  const kind = index % 97 === 0 ? 'pre-rollback' : 'checkpoint';
  const session = index % 8;
  return {
    id: randomBytes(20).toString('hex'),
    dir: seededDir,
    time: new Date(now - secondsAgo * 1000).toISOString(),
    reason:
      kind === 'pre-rollback'
        ? 'pre-rollback snapshot (restoring to 1a2b3c4d)'
        : (reasons[index % reasons.length] ?? 'before write_file'),
    attribution:
      kind === 'pre-rollback'
        ? {}
        : {
            sessionId: `ses_bench${session}`,
            agent: `agent-${session}`,
            turn: 1 + Math.floor(index / 8),
            tool: tools[index % tools.length] ?? 'write_file',
          },
    kind,
    stats: { files: 1 + (index % 5), insertions: index % 40, deletions: index % 13 },
    skipped: [],
    tree: randomBytes(20).toString('hex'),
    source: 'vigil',
  };
}

/** A served page with a seeded core: the built renderer, and `/ws` answering the contract from memory. */
export interface SeededServer {
  readonly url: string;
  readonly entries: SeededEntry[];
  /** Sends a contract event to every connected page; resolves with the wall-clock time it was written. */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): number;
  close(): Promise<void>;
}

function answer(channel: CallName, payload: unknown, entries: readonly SeededEntry[]): unknown {
  const request = (payload ?? {}) as Record<string, unknown>;
  switch (channel) {
    case 'app:info':
      return {
        name: 'vigil',
        version: 'bench',
        home: '/bench/home',
        platform: process.platform,
        pid: process.pid,
        startedAt: new Date().toISOString(),
      };
    case 'checkpoints:directories':
      return {
        directories: [
          {
            dir: seededDir,
            dirhash: '0123456789abcdef',
            head: entries[0]?.id,
            count: entries.length,
            lastTouch: entries[0]?.time ?? '',
            exists: true,
          },
        ],
      };
    case 'checkpoints:list': {
      const offset = Number(request['offset'] ?? 0);
      const limit = Number(request['limit'] ?? 100);
      return { dir: seededDir, total: entries.length, entries: entries.slice(offset, offset + limit) };
    }
    case 'checkpoints:diff':
      return {
        dir: seededDir,
        from: { id: String(request['checkpoint']), reason: 'r', time: new Date().toISOString() },
        to: { kind: 'live' },
        totalFiles: 0,
        offset: 0,
        nextOffset: null,
        files: [],
      };
    case 'sessions:list':
      return { sessions: [], olderCount: 0 };
    case 'approvals:list':
      return { approvals: [] };
    case 'memory:directories':
      return { directories: [] };
    default:
      return undefined;
  }
}

/**
 * The baseline: the same 10,000 checkpoints as a plain list, every row in the DOM (what a timeline
 * without virtualization costs), with the same two-line rows and a scrolling container of the same size.
 */
function baselineFiles(
  entries: readonly SeededEntry[],
): ReadonlyMap<string, { readonly type: string; readonly body: string }> {
  const script = `
    const started = performance.now();
    fetch('/bench/entries.json').then((response) => response.json()).then((entries) => {
      const list = document.getElementById('list');
      const fragment = document.createDocumentFragment();
      for (const entry of entries) {
        const row = document.createElement('div');
        row.className = 'row';
        row.setAttribute('data-testid', 'timeline-entry');
        const first = document.createElement('div');
        first.textContent = entry.reason + '  +' + entry.stats.insertions + ' -' + entry.stats.deletions + ' · ' + entry.stats.files + ' files';
        const second = document.createElement('div');
        second.textContent = (entry.attribution.agent ?? 'outside any session') + ' · ' + entry.id.slice(0, 8) + ' · ' + entry.time;
        row.append(first, second);
        fragment.append(row);
      }
      list.append(fragment);
      list.setAttribute('data-count', String(entries.length));
      void list.offsetHeight;
      requestAnimationFrame(() => { window.__baselineRendered = performance.now() - started; });
    });`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/bench/baseline.css"></head>
    <body><div id="list" data-testid="timeline-list"></div><script src="/bench/baseline.js"></script></body></html>`;
  const css =
    'body{margin:0;font:13px system-ui}#list{height:700px;width:480px;overflow:auto}.row{height:46px;box-sizing:border-box;padding:4px 10px;border-bottom:1px solid #ddd}';
  return new Map([
    ['/bench/baseline.html', { type: 'text/html; charset=utf-8', body: html }],
    ['/bench/baseline.js', { type: 'text/javascript; charset=utf-8', body: script }],
    ['/bench/baseline.css', { type: 'text/css; charset=utf-8', body: css }],
    ['/bench/entries.json', { type: 'application/json', body: JSON.stringify(entries) }],
  ]);
}

/** Starts the seeded server on a free loopback port with `count` checkpoints, newest first. */
export async function startSeededServer(rendererDir: string, count: number): Promise<SeededServer> {
  const now = Date.now();
  const entries = Array.from({ length: count }, (_, index) => seededEntry(index, index + 60, now));
  const sockets = new Set<WebSocket>();
  const baseline = baselineFiles(entries);
  const http: Server = createServer((request, response) => {
    const port = (http.address() as AddressInfo).port;
    response.setHeader('Content-Security-Policy', contentSecurityPolicy(port));
    const extra = baseline.get(request.url ?? '');
    if (extra !== undefined) {
      response.setHeader('Content-Type', extra.type);
      response.end(extra.body);
      return;
    }
    void serveStaticFile(
      rendererDir,
      (request.url ?? '/').split(/[?#]/)[0] ?? '/',
      request.method ?? 'GET',
      response,
    ).then((outcome) => {
      if (outcome.kind === 'served') return;
      response.statusCode = 404;
      response.end();
    });
  });
  const wss = new WebSocketServer({ server: http, path: '/ws' });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (data) => {
      const parsed = clientFrameSchema.safeParse(JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : ''));
      if (!parsed.success) return;
      const { id, channel, payload } = parsed.data;
      let frame: ServerFrame;
      const value = isCallName(channel) ? answer(channel, payload, entries) : undefined;
      if (value === undefined || !isCallName(channel)) {
        frame = {
          type: 'result',
          id,
          result: { ok: false, error: { code: 'unknown_call', message: `the bench core does not answer ${channel}` } },
        };
      } else {
        // Every answer passes the contract's own schema, so the page gets what a real core sends.
        frame = { type: 'result', id, result: { ok: true, value: callSpecs[channel].response.parse(value) } };
      }
      socket.send(JSON.stringify(frame));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    entries,
    emit(name, payload) {
      const frame = JSON.stringify({ type: 'event', name, payload } satisfies ServerFrame);
      const at = Date.now();
      for (const socket of sockets) socket.send(frame);
      return at;
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
