import { splitFragment } from '../../shared/ui-credential';

/** Where the page keeps the UI's credential: this tab only, gone when the tab closes. */
const storageKey = 'vigil.ui-credential';

function stored(): string | undefined {
  try {
    return window.sessionStorage.getItem(storageKey) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(token: string): void {
  try {
    window.sessionStorage.setItem(storageKey, token);
  } catch {
    // Storage disabled: the credential lives in this page only, until it reloads.
  }
}

/**
 * The served page's credential. The printed URL carries it in the fragment (`#token=…`), which
 * never reaches a server; it is moved into sessionStorage and the address bar is cleaned at once,
 * so it is never bookmarked, shared or sent anywhere. A reload in the same tab finds it there. No
 * cookie is involved: a cookie for 127.0.0.1 would reach every local server, whatever its port.
 */
export function takePageCredential(): string | undefined {
  const { token, rest } = splitFragment(window.location.hash);
  if (token === undefined) return stored();
  store(token);
  const clean = `${window.location.pathname}${window.location.search}${rest === '' ? '' : `#${rest}`}`;
  window.history.replaceState(window.history.state, '', clean);
  return token;
}

/**
 * Follows a new credential pasted into this tab's address bar: only the fragment differs, so the
 * browser does not load the page again by itself. The new credential is stored, the address
 * cleaned, and the page reloaded to connect with it. Returns the disposer.
 */
export function followCredentialChanges(): () => void {
  const onHashChange = (): void => {
    if (splitFragment(window.location.hash).token === undefined) return;
    takePageCredential();
    window.location.reload();
  };
  window.addEventListener('hashchange', onHashChange);
  return () => window.removeEventListener('hashchange', onHashChange);
}

/** What became of an address pasted into the page to get back in. */
export type PastedAddressOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Gets back in with an address the user pasted (the URL `vigil serve` printed after a restart):
 * its credential (`#token=…`) is stored and the page reloads with it; an address of another
 * server (a new port) is opened instead, and that page takes its credential itself. An address
 * without a credential is refused, saying so.
 */
export function openPastedAddress(text: string): PastedAddressOutcome {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return {
      ok: false,
      reason: 'That is not an address: paste the whole URL vigil serve printed, starting with http://',
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'Paste the http:// address vigil serve printed.' };
  const { token } = splitFragment(url.hash);
  if (token === undefined)
    return {
      ok: false,
      reason: 'That address carries no access token: copy the whole line, up to the end of "#token=…".',
    };
  if (url.origin !== window.location.origin) {
    window.location.assign(url.href);
    return { ok: true };
  }
  store(token);
  window.location.reload();
  return { ok: true };
}
