/** The state of the link between the UI and the core. */
export type ConnectionState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected'; readonly transport: 'ipc' | 'websocket' }
  | { readonly kind: 'reconnecting'; readonly reason: string; readonly attempt: number; readonly retryInMs: number }
  | { readonly kind: 'disconnected'; readonly reason: string };
