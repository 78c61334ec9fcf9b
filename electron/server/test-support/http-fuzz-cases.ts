/** A deterministic pseudo-random source (mulberry32): the same seed gives the same cases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the fuzz targets: the server's port and both credentials. */
export interface FuzzTarget {
  readonly port: number;
  readonly uiToken: string;
  readonly agentToken: string;
  /** Whether the server serves the built UI (GET / is then 200, else 404). */
  readonly hasUi: boolean;
}

/** One request: its raw bytes, and the status an unmutated template must get. */
export interface FuzzCase {
  readonly index: number;
  readonly label: string;
  readonly bytes: Buffer;
  /** Set for templates sent as they are; mutated cases only need "an answer below 500". */
  readonly expected?: number;
}

interface Template {
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

type Header = readonly [string, string];

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
function templates(target: FuzzTarget): readonly Template[] {
  return [
    ...fileTemplates(target),
    ...plainSocketTemplates(target),
    ...mcpTemplates(target),
    ...upgradeTemplates(target),
  ];
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomBytes(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

function randomText(random: () => number, length: number): string {
  const alphabet = Array.from('abcXYZ019%=;,.:/\\?#&[]{}"\' \t<>@!~*()+-_\u00e9\u2603');
  return Array.from({ length }, () => pick(random, alphabet)).join('');
}

/** Values that broke or could break a parser: bad percent-encodings, separators, huge and empty values. */
function nastyValue(random: () => number, port: number): string {
  return pick(random, [
    '%E0%A4%A',
    `vigil_token_${port}=%E0%A4%A`,
    '%',
    '%zz',
    '%00',
    '',
    ' ',
    '=;=;=',
    'Bearer',
    'Bearer ',
    'Bearer  x y',
    'Basic Zm9vOmJhcg==',
    'null',
    'http://[',
    'http://evil.example',
    'vigil-token.',
    `vigil-token.${'x'.repeat(300)}`,
    ',,,',
    'x'.repeat(9000),
    randomText(random, 40),
    '\u00ff\u00fe',
  ]);
}

/** One mutation of a template's parts. */
function mutateParts(
  random: () => number,
  template: Template,
  port: number,
): { method: string; target: string; headers: [string, string][]; body: string } {
  let method = template.method;
  let target = template.target;
  const headers = template.headers.map(([name, value]) => [name, value] as [string, string]);
  let body = template.body ?? '';
  const mutations = 1 + Math.floor(random() * 3);
  for (let count = 0; count < mutations; count += 1) {
    switch (Math.floor(random() * 9)) {
      case 0:
        method = pick(random, ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'G3T', 'get']);
        break;
      case 1:
        target = pick(random, [
          `${target}${nastyValue(random, port)}`,
          `/${nastyValue(random, port)}`,
          '//evil/x',
          '*',
          'http://127.0.0.1/ws',
          `${target}?cwd=${nastyValue(random, port)}&agent=${nastyValue(random, port)}`,
          '/..%2f..%2fetc%2fpasswd',
          `/assets/${'%2e%2e/'.repeat(5)}x`,
        ]);
        break;
      case 2:
        headers.push([
          pick(random, [
            'Cookie',
            'Authorization',
            'Origin',
            'Sec-WebSocket-Protocol',
            'Mcp-Session-Id',
            'Host',
            'Accept',
            'Content-Type',
          ]),
          nastyValue(random, port),
        ]);
        break;
      case 3: {
        const index = Math.floor(random() * headers.length);
        headers.splice(index, 1);
        break;
      }
      case 4: {
        const index = Math.floor(random() * headers.length);
        const header = headers[index];
        if (header !== undefined) headers[index] = [header[0], nastyValue(random, port)];
        break;
      }
      case 5:
        body = pick(random, [
          '',
          '{',
          '[]',
          '[null,1,"x"]',
          'null',
          `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${nastyValue(random, port) || '{}'}}`,
          randomText(random, 200),
          '['.repeat(5000),
        ]);
        break;
      case 6:
        headers.push(['Content-Length', pick(random, ['-1', 'abc', '99999999999', String(body.length + 7), '0'])]);
        break;
      case 7:
        headers.push(['Transfer-Encoding', pick(random, ['chunked', 'gzip', 'chunked, chunked'])]);
        break;
      default:
        headers.push(['X-Fuzz', randomText(random, 30)]);
    }
  }
  return { method, target, headers, body };
}

function serialize(
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[],
  body: string,
): Buffer {
  const bodyBytes = Buffer.from(body, 'utf8');
  const hasLength = headers.some(
    ([name]) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding',
  );
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (!hasLength && bodyBytes.length > 0) lines.push(`Content-Length: ${bodyBytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bodyBytes]);
}

/** Flips, cuts or splices a serialized request at the byte level. */
function mangleBytes(random: () => number, bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  switch (Math.floor(random() * 4)) {
    case 0:
      for (let flips = 0; flips < 1 + Math.floor(random() * 8); flips += 1)
        copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      return copy;
    case 1:
      return copy.subarray(0, Math.floor(random() * copy.length));
    case 2: {
      const at = Math.floor(random() * copy.length);
      return Buffer.concat([
        copy.subarray(0, at),
        Buffer.from(pick(random, ['\r\n', '\n', '\0', ' \r\n\r\n', ': ']), 'latin1'),
        copy.subarray(at),
      ]);
    }
    default:
      return Buffer.concat([copy, randomBytes(random, Math.floor(random() * 64))]);
  }
}

/**
 * The fuzz cases for one seed: a fifth are templates as they are (each with the status it must
 * get), most are templates mutated in their method, target, headers or body, some are mangled at
 * the byte level, and some are random bytes.
 */
export function fuzzCases(seed: number, count: number, target: FuzzTarget): readonly FuzzCase[] {
  const random = seededRandom(seed);
  const weighted = templates(target).flatMap((template) => Array.from({ length: template.weight }, () => template));
  const cases: FuzzCase[] = [];
  for (let index = 0; index < count; index += 1) {
    const template = pick(random, weighted);
    const roll = random();
    if (roll < 0.2) {
      cases.push({
        index,
        label: template.label,
        bytes: serialize(template.method, template.target, template.headers, template.body ?? ''),
        expected: template.expected,
      });
    } else if (roll < 0.8) {
      const parts = mutateParts(random, template, target.port);
      cases.push({
        index,
        label: `mutated ${template.label}`,
        bytes: serialize(parts.method, parts.target, parts.headers, parts.body),
      });
    } else if (roll < 0.95) {
      cases.push({
        index,
        label: `mangled ${template.label}`,
        bytes: mangleBytes(random, serialize(template.method, template.target, template.headers, template.body ?? '')),
      });
    } else {
      cases.push({ index, label: 'random bytes', bytes: randomBytes(random, 1 + Math.floor(random() * 512)) });
    }
  }
  return cases;
}

/** A random JSON value of bounded depth, favouring the keys the endpoints look at. */
function randomJson(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth > 3 || roll < 0.3)
    return pick(random, [
      null,
      true,
      0,
      -1,
      1.5,
      2 ** 53,
      '',
      'x',
      '\u0000',
      'app:info',
      'session.open',
      'tools.call',
      '2.0',
      'call',
    ]);
  if (roll < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const keys = [
    'type',
    'id',
    'channel',
    'payload',
    'jsonrpc',
    'method',
    'params',
    'sessionId',
    'calls',
    'name',
    'arguments',
    randomText(random, 5),
  ];
  return Object.fromEntries(
    Array.from({ length: 1 + Math.floor(random() * 5) }, () => [pick(random, keys), randomJson(random, depth + 1)]),
  );
}

/** One random WebSocket frame: JSON shaped like the protocols' messages, broken JSON, or binary. */
export function randomFrame(random: () => number): { readonly data: string | Buffer; readonly isBinary: boolean } {
  const roll = random();
  if (roll < 0.1) return { data: randomBytes(random, 1 + Math.floor(random() * 64)), isBinary: true };
  if (roll < 0.3) return { data: randomText(random, 1 + Math.floor(random() * 80)), isBinary: false };
  if (roll < 0.4) return { data: '['.repeat(10_000), isBinary: false };
  return { data: JSON.stringify(randomJson(random, 0)), isBinary: false };
}
