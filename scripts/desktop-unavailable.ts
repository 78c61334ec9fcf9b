/** Why `npm start` cannot open the desktop window, one precise cause each. */
export type DesktopUnavailable =
  | { readonly kind: 'override-empty'; readonly folder: string }
  | { readonly kind: 'fetch-failed'; readonly detail: string }
  | { readonly kind: 'fetch-timed-out'; readonly seconds: number }
  | { readonly kind: 'no-display' };

function cause(reason: DesktopUnavailable, binary: string): { readonly what: string; readonly remedy: string } {
  const elsewhere = `run \`npm start\` once on a machine with network access, or set ELECTRON_OVERRIDE_DIST_PATH to a folder that holds ${binary}`;
  switch (reason.kind) {
    case 'override-empty':
      return {
        what: `ELECTRON_OVERRIDE_DIST_PATH points at ${reason.folder}, which holds no electron executable`,
        remedy: `To get the desktop window, point ELECTRON_OVERRIDE_DIST_PATH at a folder that holds ${binary}, or unset it so the electron package fetches its own runtime.`,
      };
    case 'fetch-failed':
      return {
        what: `the Electron runtime is not installed, and fetching it failed (${reason.detail}). The electron package downloads it on the first start, which needs network access`,
        remedy: `To get the desktop window, ${elsewhere}.`,
      };
    case 'fetch-timed-out':
      return {
        what: `the Electron runtime is not installed, and fetching it did not finish within ${reason.seconds} s (no network, or a slow one). The electron package downloads it on the first start`,
        remedy: `To get the desktop window, ${elsewhere}; on a slow network, set VIGIL_ELECTRON_FETCH_TIMEOUT to more seconds.`,
      };
    case 'no-display':
      return {
        what: 'the Electron runtime is here, but there is no display to open a window on: neither DISPLAY nor WAYLAND_DISPLAY is set',
        remedy:
          'To get the desktop window, run `npm start` in a desktop session, or under a virtual display (xvfb-run npm start).',
      };
  }
}

/** Wraps words into lines of at most `width` characters. */
function wrap(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The paragraph `npm start` prints before falling back to `vigil serve`: the one cause, that the
 * browser gets the same core and UI, how the token works, and how to get the window. `binary`
 * names the runtime wanted ("an Electron 45.4.1 binary").
 */
export function explainDesktopUnavailable(reason: DesktopUnavailable, binary: string): string {
  const { what, remedy } = cause(reason, binary);
  const text =
    `Vigil cannot open its desktop window here: ${what}. ` +
    'So it is starting the same app for your browser instead: `vigil serve` runs the same core and the same UI on 127.0.0.1. ' +
    'Open the URL printed below: it carries the access token in its #token= fragment (the page keeps it in the tab’s sessionStorage, never in a cookie), and the token is valid until this server stops. ' +
    remedy;
  return ['', ...wrap(text), '', ''].join('\n');
}
