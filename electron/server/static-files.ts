import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** What became of a request for a static file. */
export type StaticOutcome =
  | { readonly kind: 'served' }
  | { readonly kind: 'missing' }
  /** The path leads through a symlink (or changed while it was opened): never followed. */
  | { readonly kind: 'refused'; readonly reason: string };

/** The path's segments below the served folder, or undefined when it cannot name a file there. */
function segmentsOf(urlPath: string): readonly string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) return undefined;
  return segments.length === 0 ? ['index.html'] : segments;
}

/** Walks the segments from the real root with lstat: every step a real folder, the last a regular file, no symlink anywhere. */
async function walk(
  root: string,
  segments: readonly string[],
): Promise<{ readonly file: string; readonly stats: Stats } | StaticOutcome> {
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment);
    const stats = await lstat(current).catch(() => undefined);
    if (stats === undefined) return { kind: 'missing' };
    if (stats.isSymbolicLink())
      return { kind: 'refused', reason: `${segments.slice(0, index + 1).join('/')} is a symbolic link` };
    const isLast = index === segments.length - 1;
    if (isLast) return stats.isFile() ? { file: current, stats } : { kind: 'missing' };
    if (!stats.isDirectory()) return { kind: 'missing' };
  }
  return { kind: 'missing' };
}

/** Opens the walked file without following a final symlink, and checks it is still the file walked and that its real path is still inside. */
async function openWalked(file: string, walked: Stats): Promise<FileHandle | StaticOutcome> {
  // Windows has no O_NOFOLLOW (the constant is missing there); the identity and real-path checks below still hold.
  const noFollow = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
  const handle = await open(file, constants.O_RDONLY | noFollow).catch(() => undefined);
  if (handle === undefined) return { kind: 'refused', reason: `${path.basename(file)} changed while it was opened` };
  const opened = await handle.stat();
  const real = await realpath(file).catch(() => undefined);
  if (opened.ino !== walked.ino || opened.dev !== walked.dev || real !== file) {
    await handle.close();
    return { kind: 'refused', reason: `${path.basename(file)} changed while it was opened` };
  }
  return handle;
}

/**
 * Serves one file of the built renderer, confined by real path: the served folder is resolved
 * once, each segment below it must be a real folder (the last a regular file), and a symlink
 * anywhere under it is refused, not followed. The file is opened without following links and
 * checked to be the one walked, so a link swapped in meanwhile is refused too. `/` is `index.html`.
 */
export async function serveStaticFile(
  root: string,
  urlPath: string,
  method: string,
  response: ServerResponse,
): Promise<StaticOutcome> {
  const segments = segmentsOf(urlPath);
  if (segments === undefined) return { kind: 'missing' };
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return { kind: 'missing' };
  const walked = await walk(realRoot, segments);
  if ('kind' in walked) return walked;
  const handle = await openWalked(walked.file, walked.stats);
  if ('kind' in handle) return handle;
  const extension = path.extname(walked.file).toLowerCase();
  response.statusCode = 200;
  response.setHeader('Content-Type', contentTypes[extension] ?? 'application/octet-stream');
  response.setHeader('Content-Length', walked.stats.size);
  response.setHeader('Cache-Control', extension === '.html' ? 'no-store' : 'private, max-age=3600');
  if (method === 'HEAD') {
    await handle.close();
    response.end();
    return { kind: 'served' };
  }
  await new Promise<void>((resolve) => {
    const stream = handle.createReadStream();
    stream.on('error', () => {
      response.destroy();
      resolve();
    });
    response.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(response);
  });
  return { kind: 'served' };
}
