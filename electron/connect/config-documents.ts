import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { AppError } from '../../shared/errors';

/** Where the entry goes: the outer key (`mcpServers`) and the server's name (`vigil`). */
export type EntryPath = readonly [string, string];

function parseError(file: string, kind: string, detail: string): AppError {
  return new AppError(
    'invalid_request',
    `${file} is not valid ${kind}, so nothing was written (the file is unchanged): ${detail.trim()}\nFix it (or move it aside) and run again, or add the entry above by hand.`,
    { path: file },
  );
}

function notAnObject(file: string, where: string): AppError {
  return new AppError(
    'invalid_request',
    `${file}: ${where} is not an object of servers, so Vigil will not guess where its entry goes; nothing was written. Add the entry above by hand.`,
    {
      path: file,
    },
  );
}

/** Whether a value is a plain JSON object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The indentation a JSON file uses (its first indented line), two spaces when it has none. */
function indentOf(text: string): string | number {
  const match = /^([ \t]+)"/m.exec(text);
  return match?.[1] ?? 2;
}

/** The position of a JSON syntax error as "line L, column C", from V8's message. */
function jsonErrorAt(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (position?.[1] === undefined) return message;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return `${message} (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

/**
 * Merges `entry` into a JSON configuration at `path`, keeping every other key in its place; the
 * file keeps its indentation. Refuses a file that is not a JSON object, or that holds comments
 * (VS Code allows them; a rewrite would drop them).
 */
export function mergeJson(
  file: string,
  before: string | undefined,
  path: EntryPath,
  entry: Record<string, unknown>,
): string {
  let root: unknown = {};
  if (before !== undefined && before.trim() !== '') {
    try {
      root = JSON.parse(before);
    } catch (error) {
      const hasComments = /^\s*\/[/*]/m.test(before);
      throw parseError(
        file,
        'JSON',
        hasComments ? 'it holds comments, which a rewrite would drop.' : jsonErrorAt(before, error),
      );
    }
  }
  if (!isObject(root)) throw notAnObject(file, 'the file');
  const servers = root[path[0]] ?? {};
  if (!isObject(servers)) throw notAnObject(file, `"${path[0]}"`);
  const merged = { ...root, [path[0]]: { ...servers, [path[1]]: entry } };
  return `${JSON.stringify(merged, null, before === undefined ? 2 : indentOf(before))}\n`;
}

/**
 * Merges the entry of `snippet` (a YAML document with the entry at `path`) into a YAML
 * configuration, keeping its comments, order and style; the entry keeps the snippet's own style,
 * so the file shows what was printed. Refuses a file YAML cannot parse, or whose root or
 * `path[0]` is not a mapping.
 */
export function mergeYaml(file: string, before: string | undefined, path: EntryPath, snippet: string): string {
  const entry = parseDocument(snippet).getIn(path, true);
  const document: Document = parseDocument(before ?? '', { prettyErrors: true });
  const [first] = document.errors;
  if (first !== undefined) throw parseError(file, 'YAML', first.message);
  if (document.contents !== null && !isMap(document.contents)) throw notAnObject(file, 'the file');
  const servers = document.get(path[0], true);
  // `mcp_servers:` with nothing under it is an empty mapping to fill, not a conflict.
  if (isScalar(servers) && servers.value === null) document.set(path[0], document.createNode({}));
  else if (servers !== undefined && !isMap(servers)) throw notAnObject(file, `"${path[0]}"`);
  document.setIn(path, entry);
  return document.toString({ flowCollectionPadding: false, lineWidth: 0 });
}

/** Whether a TOML line opens a table (`[a.b]`, `[[a]]`), and which. */
function tableOf(line: string): string | undefined {
  return /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/
    .exec(line)?.[1]
    ?.replace(/\s*\.\s*/g, '.')
    .replace(/"/g, '');
}

/**
 * Puts the table of `snippet` (`[mcp_servers.vigil]` and its lines) into a TOML configuration:
 * in place of the earlier one (its sub-tables too), else at the end; every other line is kept as
 * it was. Refuses a file that defines the servers inline (`mcp_servers = { … }`), where a table
 * would clash.
 */
export function mergeToml(file: string, before: string | undefined, path: EntryPath, snippet: string): string {
  const name = `${path[0]}.${path[1]}`;
  const lines = (before ?? '').split('\n');
  if (lines.some((line) => new RegExp(`^\\s*${path[0]}\\s*=`).test(line))) throw notAnObject(file, `"${path[0]}"`);
  const start = lines.findIndex((line) => tableOf(line) === name);
  const block = snippet.split('\n');
  if (start === -1) {
    const text = (before ?? '').replace(/\n*$/, '');
    return `${text === '' ? '' : `${text}\n\n`}${snippet}\n`;
  }
  let end = start + 1;
  while (end < lines.length) {
    const table = tableOf(lines[end] ?? '');
    if (table !== undefined && table !== name && !table.startsWith(`${name}.`)) break;
    end += 1;
  }
  // Keep the blank lines that separated the old table from the next one.
  while (end > start + 1 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return [...lines.slice(0, start), ...block, ...lines.slice(end)].join('\n');
}
