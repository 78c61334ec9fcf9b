/**
 * How the served page carries the UI's credential without a cookie. The printed URL holds it in
 * the fragment (`#token=…`), which browsers never send to a server; the page moves it to
 * sessionStorage and offers it on the WebSocket as a subprotocol, which only Vigil's own socket
 * receives. Non-browser clients send `Authorization: Bearer <token>` instead.
 */

/** The subprotocol the page asks for and the server selects; it carries no secret. */
export const uiSubprotocol = 'vigil-ui';

/** The prefix of the subprotocol that carries the credential (`vigil-token.<token>`); never selected, never echoed. */
export const tokenSubprotocolPrefix = 'vigil-token.';

/** The fragment key of the printed URL (`http://127.0.0.1:7420/#token=…`). */
export const tokenFragmentKey = 'token';

/** A credential as Vigil makes them: URL-safe base64 (also a valid subprotocol token), 20–200 characters. */
const credentialPattern = /^[A-Za-z0-9_-]{20,200}$/;

/** Whether a string has the shape of a Vigil credential (so it can travel as a subprotocol). */
export function isCredentialShaped(value: string): boolean {
  return credentialPattern.test(value);
}

/** The URL that opens the served UI with its credential in the fragment. */
export function uiUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/#.*$/, '')}#${tokenFragmentKey}=${token}`;
}

/** The address of a UI URL without its credential (for messages and logs). */
export function withoutCredential(url: string): string {
  return url.replace(/[#?]token=.*$/, '');
}

/**
 * Splits a URL fragment into the credential it carries (`token=…`, one of its `&`-separated
 * parts; undefined when absent or malformed) and the rest, which is the UI's route
 * (`#/timeline/…&token=…` → `/timeline/…`).
 */
export function splitFragment(hash: string): { readonly token: string | undefined; readonly rest: string } {
  const parts = hash.replace(/^#/, '').split('&');
  let token: string | undefined;
  const rest: string[] = [];
  for (const part of parts) {
    if (part.startsWith(`${tokenFragmentKey}=`)) {
      const value = part.slice(tokenFragmentKey.length + 1);
      if (isCredentialShaped(value)) token = value;
    } else if (part !== '') {
      rest.push(part);
    }
  }
  return { token, rest: rest.join('&') };
}

/** The subprotocols the page offers: the plain one first, then the one carrying the credential. */
export function pageSubprotocols(token: string): readonly string[] {
  return [uiSubprotocol, `${tokenSubprotocolPrefix}${token}`];
}

/** The credential among offered subprotocols (the `Sec-WebSocket-Protocol` list), if one is offered. */
export function tokenFromSubprotocols(offered: Iterable<string>): string | undefined {
  for (const protocol of offered) {
    if (!protocol.startsWith(tokenSubprotocolPrefix)) continue;
    const value = protocol.slice(tokenSubprotocolPrefix.length);
    return isCredentialShaped(value) ? value : undefined;
  }
  return undefined;
}
