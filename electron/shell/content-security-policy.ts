/** The directives both policies share: own scripts, styles, images and fonts only; no plugins, forms or base tricks. */
const sharedDirectives = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
] as const;

/**
 * The Content-Security-Policy header of every `app://vigil` response: the desktop renderer talks to
 * the core over IPC only, so it may open no connection at all, and no page may frame it.
 */
export const desktopContentSecurityPolicy = [...sharedDirectives, "connect-src 'none'", "frame-ancestors 'none'"].join(
  '; ',
);

/**
 * The policy the build writes into the renderer's `<meta http-equiv="Content-Security-Policy">`, a
 * second layer under each transport's header (browsers enforce both). One page serves both
 * transports, so it allows connections to its own origin (`vigil serve`'s WebSocket; nothing under
 * app://), and it omits frame-ancestors, which a meta tag cannot carry.
 */
export const rendererMetaContentSecurityPolicy = [...sharedDirectives, "connect-src 'self'"].join('; ');
