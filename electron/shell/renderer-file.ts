import path from 'node:path';
import { appHost, appScheme } from './app-origin';
import { relativeInside } from '../lib';

/**
 * The built-renderer file an `app://vigil/…` request names, or undefined when the request is for
 * another host, is malformed, or would leave the renderer folder (`..`, encoded separators, NUL).
 */
export function resolveRendererFile(rendererDir: string, requestUrl: string): string | undefined {
  let url: URL;
  let pathname: string;
  try {
    url = new URL(requestUrl);
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${appScheme}:` || url.host !== appHost || pathname.includes('\0') || pathname.includes('\\'))
    return undefined;
  const root = path.resolve(rendererDir);
  const relative = (pathname === '/' ? '/index.html' : pathname).replace(/^\/+/, '');
  const filePath = path.resolve(root, relative);
  const inside = relativeInside(root, filePath);
  return inside === undefined || inside === '' ? undefined : filePath;
}
