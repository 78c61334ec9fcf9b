import { stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import type { Disposer } from '../lib';
import { appScheme } from './app-origin';
import { desktopContentSecurityPolicy } from './content-security-policy';
import { resolveRendererFile } from './renderer-file';

/** Must run before the app is ready: makes `app://` a standard, secure scheme (so the page is a secure context). */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

function refusal(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': desktopContentSecurityPolicy },
  });
}

/**
 * Serves the built renderer from `app://vigil/…`: GET and HEAD only, confined to its folder, every
 * response with the desktop CSP. Nothing is ever loaded from file:// or the network.
 */
export function handleAppProtocol(rendererDir: string): Disposer {
  protocol.handle(appScheme, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'Method not allowed');
    const filePath = resolveRendererFile(rendererDir, request.url);
    if (filePath === undefined) return refusal(404, 'Not found');
    const isFile = await stat(filePath).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!isFile) return refusal(404, 'Not found');
    const response = await net.fetch(pathToFileURL(filePath).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', desktopContentSecurityPolicy);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    return new Response(response.body, { status: response.status, headers });
  });
  return () => {
    protocol.unhandle(appScheme);
  };
}
