/**
 * What the page's own server says to a plain request after its WebSocket closed abnormally.
 * Browsers report a refused handshake (401/403) and a dead server alike, as close code 1006, so
 * only a second, ordinary request tells them apart.
 */
export type ServerProbe = 'refused' | 'misdirected' | 'up' | 'unreachable';

/** How long the probe waits for an answer before calling the server unreachable. */
const probeTimeoutMs = 5000;

/**
 * Asks the server at `origin` whether it takes the page's credential: a plain GET of `/ws` with
 * `Authorization: Bearer` (uncached, no cookies). 401 or 403 means it runs but no longer takes
 * this credential; 421 that it does not answer to this host name; any other answer (426, upgrade
 * required) that it is up; no answer that it is unreachable.
 */
export async function probeServer(origin: string, token: string): Promise<ServerProbe> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), probeTimeoutMs);
  try {
    const response = await fetch(new URL('/ws', origin), {
      method: 'GET',
      headers: { authorization: `Bearer ${token}` },
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    });
    if (response.status === 401 || response.status === 403) return 'refused';
    if (response.status === 421) return 'misdirected';
    return 'up';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
