import type { IncomingMessage } from 'node:http';
import type { AppErrorData } from '../../shared/errors';
import type { RouteAudience } from '../transport';
import { isSameSecret, presentedToken } from './auth';

/**
 * Who a request's credential says it is. The UI's audience has two credentials: the page's (printed
 * once in the URL `vigil serve` prints, never written to disk) and the CLI's (in serve.json, for the
 * user's own CLI and scripts). Both reach `/ws`; only the page's may approve a held-back call.
 */
export type Credential =
  { readonly kind: 'ui'; readonly holder: UiCredentialHolder } | { readonly kind: 'agent'; readonly name: string };

/** page | cli: which of the UI's two credentials a request presented. */
export type UiCredentialHolder = 'page' | 'cli';

/** What the server checks credentials against. */
export interface CredentialAuthority {
  /** The CLI's credential of the UI's audience (random per start, in serve.json). */
  readonly uiToken: string;
  /** The page's credential (random per start, only in the printed URL's fragment, never on disk). */
  readonly pageToken: string;
  /** The agents' credentials (per client, stable, revocable). */
  readonly agents: { identify(secret: string): Promise<string | undefined> };
  /** serve.json, named in messages. */
  readonly serveInfoPath: string;
}

/** A request's access to a route: its credential, or the refusal to answer with. */
export type RouteAccess =
  | { readonly isAllowed: true; readonly credential: Credential }
  | {
      readonly isAllowed: false;
      readonly status: 401 | 403;
      readonly error: AppErrorData;
      readonly refused?: Credential;
    };

/** Which credential a token is: the UI's, a stored agent's, or none. */
export async function identifyCredential(
  token: string,
  authority: CredentialAuthority,
): Promise<Credential | undefined> {
  if (isSameSecret(token, authority.pageToken)) return { kind: 'ui', holder: 'page' };
  if (isSameSecret(token, authority.uiToken)) return { kind: 'ui', holder: 'cli' };
  const name = await authority.agents.identify(token);
  return name === undefined ? undefined : { kind: 'agent', name };
}

function unauthorized(audience: RouteAudience, isPresented: boolean, authority: CredentialAuthority): RouteAccess {
  const message =
    audience === 'ui'
      ? `${isPresented ? "This is not the UI's credential of this Vigil (it changes on every start)" : "The UI's credential is missing"}. ` +
        `Open the URL that "vigil serve" printed (it ends in #token=…); scripts send "Authorization: Bearer <token>" with the token from ${authority.serveInfoPath}.`
      : `${isPresented ? 'This agent credential is unknown or was revoked' : 'An agent credential is missing'}. ` +
        'Run "vigil connect <client>" (hermes, claude-code, cursor, vscode) for a configuration that carries one, or "vigil connect --credential NAME" ' +
        'for your own agent, and send it as "Authorization: Bearer <credential>".';
  return { isAllowed: false, status: 401, error: { code: 'unauthorized', message } };
}

function wrongKind(audience: RouteAudience, credential: Credential, path: string): RouteAccess {
  const message =
    credential.kind === 'agent'
      ? `The agent credential "${credential.name}" cannot reach ${path}: agents reach only /mcp and /agent. ${path} (approvals, restore, rewind, config) ` +
        "takes the UI's credential, which no agent is given. This attempt was logged."
      : `This is the UI's credential: ${path} is for agents, which use their own. Run "vigil connect <client>" (or "vigil connect --credential NAME") ` +
        'for an agent credential.';
  return {
    isAllowed: false,
    status: 403,
    error: { code: 'denied', message, details: { audience } },
    refused: credential,
  };
}

/**
 * Checks a request's credential against a route's audience: none or an unknown one is 401; the
 * other kind of credential is 403 (an agent's on `/ws`, the UI's on `/mcp` or `/agent`).
 */
export async function checkRouteAccess(
  request: IncomingMessage,
  audience: RouteAudience,
  path: string,
  authority: CredentialAuthority,
): Promise<RouteAccess> {
  const token = presentedToken(request);
  if (token === undefined) return unauthorized(audience, false, authority);
  const credential = await identifyCredential(token, authority);
  if (credential === undefined) return unauthorized(audience, true, authority);
  if (credential.kind !== audience) return wrongKind(audience, credential, path);
  return { isAllowed: true, credential };
}
