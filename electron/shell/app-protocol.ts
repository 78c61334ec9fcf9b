import { stat } from 'node:fs/promises';
import path from 'node:path';
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';

/** The custom scheme the renderer is loaded from (never file://, never a remote URL). */
export const appScheme = 'app';
/** The origin of the renderer's pages. */
export const appOrigin = `${appScheme}://vigil`;

/** The Content-Security-Policy of the desktop renderer: own scripts and styles only, no network. */
export const desktopContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Must run before the app is ready: makes `app://` a standard, secure scheme. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the built renderer from `app://vigil/…`, confined to its folder, with the CSP header. */
export function handleAppProtocol(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(appScheme, async (request) => {
    const url = new URL(request.url);
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname).replace(/^\/+/, '');
    const filePath = path.resolve(root, relative);
    if (url.host !== 'vigil' || !filePath.startsWith(root + path.sep)) {
      return new Response('Not found', { status: 404 });
    }
    const isFile = await stat(filePath).then((info) => info.isFile(), () => false);
    if (!isFile) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(filePath).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', desktopContentSecurityPolicy);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
