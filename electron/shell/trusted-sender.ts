import type { WebFrameMain } from 'electron';
import { appHost, appScheme } from './app-origin';

/** What the sender check reads of an IPC message's frame. */
export type SenderFrame = Pick<WebFrameMain, 'url' | 'parent'>;

/**
 * Whether an IPC message comes from the top frame of Vigil's own page (`app://vigil/…`). A subframe,
 * any other scheme or host, or a frame already gone (null) is refused, whatever the channel.
 * (Scheme and host are compared, not `URL.origin`: Node's URL gives custom schemes the opaque
 * origin "null".)
 */
export function isTrustedSender(frame: SenderFrame | null | undefined): boolean {
  if (frame === null || frame === undefined || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    return url.protocol === `${appScheme}:` && url.host === appHost;
  } catch {
    return false;
  }
}
