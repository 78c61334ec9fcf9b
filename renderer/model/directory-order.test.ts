import { describe, expect, it } from 'vitest';
import { defaultDirectory, matchesSearch, orderDirectories, type TimelineDirectory } from './directory-order';

function directory(dir: string, lastTouch: string): TimelineDirectory {
  return { dir, dirhash: dir, count: 3, lastTouch, exists: true };
}

describe('the folder picker', () => {
  const home = '/home/ada/.vigil';
  const all = [
    directory('/w/older', '2026-11-22T09:00:00Z'),
    directory(`${home}/memories`, '2026-11-22T12:00:00Z'),
    directory('/w/recent', '2026-11-22T11:00:00Z'),
    directory('/home/ada/.hermes/memories', '2026-11-22T13:00:00Z'),
  ];

  it("lists the folders people work in first, most recently active first, and Vigil's own last", () => {
    const ordered = orderDirectories(all, [home, '/home/ada/.hermes/memories']);
    expect(ordered.map((item) => [item.directory.dir, item.isOwn])).toEqual([
      ['/w/recent', false],
      ['/w/older', false],
      ['/home/ada/.hermes/memories', true],
      [`${home}/memories`, true],
    ]);
    expect(defaultDirectory(ordered)).toBe('/w/recent');
    // With only Vigil's own folders, the most recent of them.
    expect(defaultDirectory(orderDirectories(all.slice(1, 2), [home]))).toBe(`${home}/memories`);
  });

  it('finds folders by every word typed, in the name or the path', () => {
    expect(all.filter((item) => matchesSearch(item, 'MEM hermes')).map((item) => item.dir)).toEqual([
      '/home/ada/.hermes/memories',
    ]);
    expect(all.filter((item) => matchesSearch(item, '  ')).length).toBe(4);
  });
});
