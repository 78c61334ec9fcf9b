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
