/**
 * Why the link is down: the server refused this page's token (it was restarted, which makes a new
 * one), the page has none, the server does not answer to this address, it cannot be reached, the
 * link dropped though the server answers, a message was too large, or the client stopped trying.
 */
export type ConnectionCause =
  'refused' | 'no-token' | 'misdirected' | 'unreachable' | 'dropped' | 'too-large' | 'gave-up';

/** The causes that only the user can fix (a new address): retrying cannot help. */
export const credentialCauses: ReadonlySet<ConnectionCause> = new Set(['refused', 'no-token', 'misdirected']);

/** The state of the link between the UI and the core. */
export type ConnectionState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected'; readonly transport: 'ipc' | 'websocket' }
  | {
      readonly kind: 'reconnecting';
      readonly reason: string;
      readonly cause?: ConnectionCause;
      readonly attempt: number;
      readonly retryInMs: number;
    }
  | { readonly kind: 'disconnected'; readonly reason: string; readonly cause?: ConnectionCause };
