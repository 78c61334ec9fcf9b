import { describe, expect, it } from 'vitest';
import { hashFromRoute, isSameRoute, routeFromHash, type Route } from './route';

describe('routes', () => {
  it('round-trip through the hash, directory paths included', () => {
    const routes: Route[] = [
      { screen: 'sessions' },
      { screen: 'sessions', sessionId: 's-1' },
      { screen: 'timeline', dir: '/w/my project', checkpointId: 'abc123' },
      { screen: 'timeline', dir: 'C:\\w\\p' },
      { screen: 'memory', dirId: '0123456789abcdef' },
      { screen: 'approvals' },
    ];
    for (const route of routes)
      expect(isSameRoute(routeFromHash(hashFromRoute(route)), route), hashFromRoute(route)).toBe(true);
    expect(hashFromRoute({ screen: 'timeline', dir: '/w/p', checkpointId: 'c1' })).toBe('#/timeline/%2Fw%2Fp/c1');
  });

  it('falls back to the sessions screen for anything unknown or malformed', () => {
    expect(routeFromHash('')).toEqual({ screen: 'sessions', sessionId: undefined });
    expect(routeFromHash('#/nowhere/x')).toEqual({ screen: 'sessions', sessionId: undefined });
    expect(routeFromHash('#/timeline/%E0%A4%A')).toEqual({
      screen: 'timeline',
      dir: undefined,
      checkpointId: undefined,
    });
  });

  it('drops a checkpoint without its directory', () => {
    expect(hashFromRoute({ screen: 'timeline', checkpointId: 'c1' })).toBe('#/timeline');
  });
});
