/** The screens of the app, in navigation order (Alt+1 … Alt+4). */
export const screenIds = ['sessions', 'timeline', 'memory', 'approvals'] as const;
/** One screen of the app. */
export type ScreenId = (typeof screenIds)[number];

/** Where the user is: a screen and what is open on it. The URL's hash carries it, so reload and back keep the place. */
export type Route =
  | { readonly screen: 'sessions'; readonly sessionId?: string | undefined }
  | { readonly screen: 'timeline'; readonly dir?: string | undefined; readonly checkpointId?: string | undefined }
  | { readonly screen: 'memory'; readonly dirId?: string | undefined }
  | { readonly screen: 'approvals' };

function decode(part: string | undefined): string | undefined {
  if (part === undefined || part === '') return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** Reads a route from a hash (`#/timeline/%2Fw%2Fproject/1a2b…`); anything unknown is the sessions screen. */
export function routeFromHash(hash: string): Route {
  const [screen, first, second] = hash.replace(/^#\/?/, '').split('/');
  switch (screen) {
    case 'timeline':
      return { screen, dir: decode(first), checkpointId: decode(second) };
    case 'memory':
      return { screen, dirId: decode(first) };
    case 'approvals':
      return { screen };
    case 'sessions':
    default:
      return { screen: 'sessions', sessionId: screen === 'sessions' ? decode(first) : undefined };
  }
}

/** Writes a route as a hash; the inverse of `routeFromHash`. */
export function hashFromRoute(route: Route): string {
  const parts: (string | undefined)[] = [route.screen];
  switch (route.screen) {
    case 'sessions':
      parts.push(route.sessionId);
      break;
    case 'timeline':
      parts.push(route.dir, route.dir === undefined ? undefined : route.checkpointId);
      break;
    case 'memory':
      parts.push(route.dirId);
      break;
    case 'approvals':
      break;
  }
  const defined = parts.filter((part): part is string => part !== undefined);
  return `#/${defined.map((part) => encodeURIComponent(part)).join('/')}`;
}

/** Whether two routes name the same place. */
export function isSameRoute(a: Route, b: Route): boolean {
  return hashFromRoute(a) === hashFromRoute(b);
}
