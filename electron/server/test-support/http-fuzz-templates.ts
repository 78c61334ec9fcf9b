/** The requests the HTTP fuzz starts from: each route with each credential, and the status it must get as it is. */

/** What the fuzz targets: the server's port and both credentials. */
export interface FuzzTarget {
  readonly port: number;
  readonly uiToken: string;
  readonly agentToken: string;
  /** Whether the server serves the built UI (GET / is then 200, else 404). */
  readonly hasUi: boolean;
}

/** A well-formed request of one route and credential, and the status it must get. */
export interface Template {
  readonly label: string;
  readonly method: string;
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
  readonly expected: number;
  readonly weight: number;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
});

/** A header's name and value. */
export type Header = readonly [string, string];

const close: Header = ['Connection', 'close'];

/** The Host header a client of the target sends. */
function hostHeader(target: FuzzTarget): Header {
  return ['Host', `127.0.0.1:${target.port}`];
}

/** A WebSocket upgrade's headers, with a bearer credential unless `token` is empty. */
function upgradeHeaders(target: FuzzTarget, token: string, extra: readonly Header[] = []): Template['headers'] {
  return [
    hostHeader(target),
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
    ['Sec-WebSocket-Version', '13'],
    ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
    ...(token === '' ? [] : [['Authorization', `Bearer ${token}`] as const]),
    ...extra,
  ];
}

/** A JSON-RPC POST to `/mcp`, with `token` as its bearer credential. */
function mcpHeaders(target: FuzzTarget, token: string): Template['headers'] {
  return [
    hostHeader(target),
    close,
    ['Authorization', `Bearer ${token}`],
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
  ];
}

/** The UI's files: the page itself (served or not) and a missing asset. */
function fileTemplates(target: FuzzTarget): Template[] {
  const host = hostHeader(target);
  return [
    {
      label: 'GET /',
      method: 'GET',
      target: '/',
      headers: [host, close],
      expected: target.hasUi ? 200 : 404,
      weight: 6,
    },
    {
      label: 'HEAD /',
      method: 'HEAD',
      target: '/',
      headers: [host, close],
      expected: target.hasUi ? 200 : 404,
      weight: 2,
    },
    {
      label: 'GET /missing.js',
      method: 'GET',
      target: '/missing.js',
      headers: [host, close],
      expected: 404,
      weight: 3,
    },
  ];
}

/** Plain GETs of the UI socket's path, with each credential and none. */
function plainSocketTemplates(target: FuzzTarget): Template[] {
  const host = hostHeader(target);
  return [
    {
      label: 'GET /ws (UI)',
      method: 'GET',
      target: '/ws',
      headers: [host, close, ['Authorization', `Bearer ${target.uiToken}`]],
      expected: 426,
      weight: 4,
    },
    { label: 'GET /ws (none)', method: 'GET', target: '/ws', headers: [host, close], expected: 401, weight: 3 },
    {
      label: 'GET /ws (agent)',
      method: 'GET',
      target: '/ws',
      headers: [host, close, ['Authorization', `Bearer ${target.agentToken}`]],
      expected: 403,
      weight: 2,
    },
  ];
}

/** MCP over Streamable HTTP: the UI's credential, and an agent's before and at initialize. */
function mcpTemplates(target: FuzzTarget): Template[] {
  return [
    {
      label: 'POST /mcp (UI)',
      method: 'POST',
      target: '/mcp',
      headers: mcpHeaders(target, target.uiToken),
      body: initialize,
      expected: 403,
      weight: 3,
    },
    {
      label: 'POST /mcp (agent, not initialize)',
      method: 'POST',
      target: '/mcp?cwd=/tmp',
      headers: mcpHeaders(target, target.agentToken),
      body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      expected: 400,
      weight: 5,
    },
    {
      label: 'POST /mcp (agent, initialize)',
      method: 'POST',
      target: '/mcp?cwd=/tmp',
      headers: mcpHeaders(target, target.agentToken),
      body: initialize,
      expected: 200,
      weight: 1,
    },
  ];
}

/** WebSocket upgrades of `/ws` and `/agent`, with the right credential, the wrong one and none. */
function upgradeTemplates(target: FuzzTarget): Template[] {
  return [
    {
      label: 'upgrade /ws (UI, bearer)',
      method: 'GET',
      target: '/ws',
      headers: upgradeHeaders(target, target.uiToken),
      expected: 101,
      weight: 4,
    },
    {
      label: 'upgrade /ws (UI, subprotocol)',
      method: 'GET',
      target: '/ws',
      headers: upgradeHeaders(target, '', [
        ['Sec-WebSocket-Protocol', `vigil-ui, vigil-token.${target.uiToken}`],
        ['Origin', `http://127.0.0.1:${target.port}`],
      ]),
      expected: 101,
      weight: 3,
    },
    {
      label: 'upgrade /ws (agent)',
      method: 'GET',
      target: '/ws',
      headers: upgradeHeaders(target, target.agentToken),
      expected: 403,
      weight: 3,
    },
    {
      label: 'upgrade /agent (agent)',
      method: 'GET',
      target: '/agent',
      headers: upgradeHeaders(target, target.agentToken),
      expected: 101,
      weight: 3,
    },
    {
      label: 'upgrade /agent (none)',
      method: 'GET',
      target: '/agent',
      headers: upgradeHeaders(target, ''),
      expected: 401,
      weight: 2,
    },
  ];
}

/** Every template, in a fixed order (a seed's cases depend on it). */
export function templates(target: FuzzTarget): readonly Template[] {
  return [
    ...fileTemplates(target),
    ...plainSocketTemplates(target),
    ...mcpTemplates(target),
    ...upgradeTemplates(target),
  ];
}
