import fc from 'fast-check';
import { templates, type FuzzTarget, type Header, type Template } from './http-fuzz-templates';

export type { FuzzTarget } from './http-fuzz-templates';

/** One request: its raw bytes, and the status an unmutated template must get. */
export interface FuzzCase {
  readonly label: string;
  readonly bytes: Buffer;
  /** Set for templates sent as they are; mutated cases only need "an answer below 500". */
  readonly expected?: number;
}

const alphabet = Array.from('abcXYZ019%=;,.:/\\?#&[]{}"\' \t<>@!~*()+-_\u00e9\u2603');

/** Text of `minLength`–`maxLength` characters drawn from separators, quotes and non-ASCII letters. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });
}

/** Values that broke or could break a parser: bad percent-encodings, separators, huge and empty values. */
function nastyValue(port: number): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 19,
      arbitrary: fc.constantFrom(
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
        '\u00ff\u00fe',
      ),
    },
    { weight: 1, arbitrary: text(40, 40) },
  );
}

/** A request's parts while it is being mutated. */
interface Parts {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
}

type Mutation = (parts: Parts) => void;

/** The nine mutations of a request's method, target, headers or body, each with its drawn values. */
function mutation(port: number): fc.Arbitrary<Mutation> {
  const nasty = nastyValue(port);
  const headerName = fc.constantFrom(
    'Cookie',
    'Authorization',
    'Origin',
    'Sec-WebSocket-Protocol',
    'Mcp-Session-Id',
    'Host',
    'Accept',
    'Content-Type',
  );
  return fc.oneof(
    fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'G3T', 'get').map(
      (method): Mutation =>
        (parts) =>
          void (parts.method = method),
    ),
    fc.tuple(fc.nat(7), nasty, nasty).map(
      ([kind, a, b]): Mutation =>
        (parts) =>
          void (parts.target = [
            `${parts.target}${a}`,
            `/${a}`,
            '//evil/x',
            '*',
            'http://127.0.0.1/ws',
            `${parts.target}?cwd=${a}&agent=${b}`,
            '/..%2f..%2fetc%2fpasswd',
            `/assets/${'%2e%2e/'.repeat(5)}x`,
          ][kind] as string),
    ),
    fc.tuple(headerName, nasty).map(
      ([name, value]): Mutation =>
        (parts) =>
          void parts.headers.push([name, value]),
    ),
    fc.nat().map(
      (at): Mutation =>
        (parts) =>
          void parts.headers.splice(at % Math.max(1, parts.headers.length), 1),
    ),
    fc.tuple(fc.nat(), nasty).map(([at, value]): Mutation => (parts) => {
      const index = at % Math.max(1, parts.headers.length);
      const header = parts.headers[index];
      if (header !== undefined) parts.headers[index] = [header[0], value];
    }),
    fc
      .oneof(
        fc.constantFrom('', '{', '[]', '[null,1,"x"]', 'null', '['.repeat(5000)),
        nasty.map((value) => `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${value || '{}'}}`),
        text(200, 200),
      )
      .map(
        (body): Mutation =>
          (parts) =>
            void (parts.body = body),
      ),
    fc.constantFrom('-1', 'abc', '99999999999', '+7', '0').map(
      (length): Mutation =>
        (parts) =>
          void parts.headers.push(['Content-Length', length === '+7' ? String(parts.body.length + 7) : length]),
    ),
    fc.constantFrom('chunked', 'gzip', 'chunked, chunked').map(
      (coding): Mutation =>
        (parts) =>
          void parts.headers.push(['Transfer-Encoding', coding]),
    ),
    text(30, 30).map(
      (value): Mutation =>
        (parts) =>
          void parts.headers.push(['X-Fuzz', value]),
    ),
  );
}

/** A request as bytes; a body gets a Content-Length unless the headers already frame it. */
function serialize(method: string, target: string, headers: readonly Header[], body: string): Buffer {
  const bodyBytes = Buffer.from(body, 'utf8');
  const hasLength = headers.some(
    ([name]) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding',
  );
  const lines = [`${method} ${target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  if (!hasLength && bodyBytes.length > 0) lines.push(`Content-Length: ${bodyBytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bodyBytes]);
}

function serializeTemplate(template: Template): Buffer {
  return serialize(template.method, template.target, template.headers, template.body ?? '');
}

/** Flips, cuts or splices a serialized request at the byte level. */
function mangle(): fc.Arbitrary<(bytes: Buffer) => Buffer> {
  return fc.oneof(
    fc
      .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 })
      .map((flips) => (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        for (const [at, value] of flips) copy[at % copy.length] = value;
        return copy;
      }),
    fc.nat().map((at) => (bytes: Buffer) => bytes.subarray(0, at % bytes.length)),
    fc
      .tuple(fc.nat(), fc.constantFrom('\r\n', '\n', '\0', ' \r\n\r\n', ': '))
      .map(([at, insert]) => (bytes: Buffer) => {
        const index = at % bytes.length;
        return Buffer.concat([bytes.subarray(0, index), Buffer.from(insert, 'latin1'), bytes.subarray(index)]);
      }),
    fc.uint8Array({ maxLength: 63 }).map((tail) => (bytes: Buffer) => Buffer.concat([bytes, tail])),
  );
}

/**
 * One fuzz case: a fifth are templates as they are (each with the status it must get), most are
 * templates mutated in their method, target, headers or body, some are mangled at the byte level,
 * and some are random bytes. fast-check shrinks a failing case towards its template.
 */
export function fuzzCase(target: FuzzTarget): fc.Arbitrary<FuzzCase> {
  const template = fc.oneof(
    ...templates(target).map((each) => ({ weight: each.weight, arbitrary: fc.constant(each) })),
  );
  const asIs = template.map((each): FuzzCase => ({
    label: each.label,
    bytes: serializeTemplate(each),
    expected: each.expected,
  }));
  const mutated = fc
    .tuple(template, fc.array(mutation(target.port), { minLength: 1, maxLength: 3 }))
    .map(([each, mutations]): FuzzCase => {
      const parts: Parts = {
        method: each.method,
        target: each.target,
        headers: each.headers.map(([name, value]): [string, string] => [name, value]),
        body: each.body ?? '',
      };
      for (const apply of mutations) apply(parts);
      return {
        label: `mutated ${each.label}`,
        bytes: serialize(parts.method, parts.target, parts.headers, parts.body),
      };
    });
  const mangled = fc
    .tuple(template, mangle())
    .map(([each, apply]): FuzzCase => ({ label: `mangled ${each.label}`, bytes: apply(serializeTemplate(each)) }));
  const randomBytes = fc
    .uint8Array({ minLength: 1, maxLength: 512 })
    .map((bytes): FuzzCase => ({ label: 'random bytes', bytes: Buffer.from(bytes) }));
  return fc
    .oneof(
      { weight: 20, arbitrary: asIs },
      { weight: 60, arbitrary: mutated },
      { weight: 15, arbitrary: mangled },
      { weight: 5, arbitrary: randomBytes },
    )
    .map(readable);
}

/** A case that prints as its label and its bytes as text (how fast-check shows a counterexample). */
function readable(fuzzCase: FuzzCase): FuzzCase {
  const text = `${fuzzCase.label}: ${JSON.stringify(fuzzCase.bytes.toString('latin1'))}`;
  return Object.assign(fuzzCase, { [fc.toStringMethod]: () => text });
}

const jsonLeaf = fc.constantFrom<unknown>(
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
);

const jsonKey = fc.oneof(
  fc.constantFrom(
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
  ),
  text(5, 5),
);

/** A JSON value of bounded depth, favouring the keys and values the endpoints look at. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'json' },
    { weight: 3, arbitrary: jsonLeaf },
    { weight: 2, arbitrary: fc.array(tie('json'), { maxLength: 3 }) },
    { weight: 5, arbitrary: fc.dictionary(jsonKey, tie('json'), { minKeys: 1, maxKeys: 5 }) },
  ),
}));

/** One WebSocket frame: JSON shaped like the protocols' messages, broken JSON, or binary. */
export const frame: fc.Arbitrary<{ readonly data: string | Buffer; readonly isBinary: boolean }> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((bytes) => ({ data: Buffer.from(bytes), isBinary: true })),
  },
  { weight: 2, arbitrary: text(1, 80).map((data) => ({ data, isBinary: false })) },
  { weight: 1, arbitrary: fc.constant({ data: '['.repeat(10_000), isBinary: false }) },
  { weight: 6, arbitrary: json.map((value) => ({ data: JSON.stringify(value), isBinary: false })) },
);
