import { afterEach, describe, expect, it } from 'vitest';
import { clampDetailWidth, detailWidthBounds } from './layout-slice';
import { readUiPrefs, writeUiPrefs } from './ui-prefs';

afterEach(() => window.localStorage.clear());

describe('the UI preferences kept in the page', () => {
  it('keeps the detail width across reads, on top of what was kept before', () => {
    expect(readUiPrefs()).toEqual({});
    writeUiPrefs({ detailWidth: 61 });
    expect(readUiPrefs()).toEqual({ detailWidth: 61 });
    expect(JSON.parse(window.localStorage.getItem('vigil.ui-prefs') ?? '')).toEqual({ detailWidth: 61 });
  });

  it('reads what is malformed as nothing kept', () => {
    window.localStorage.setItem('vigil.ui-prefs', '{not json');
    expect(readUiPrefs()).toEqual({});
    window.localStorage.setItem('vigil.ui-prefs', JSON.stringify({ detailWidth: 'wide' }));
    expect(readUiPrefs()).toEqual({});
  });

  it('holds the detail width within its bounds, in whole percent', () => {
    expect(clampDetailWidth(10)).toBe(detailWidthBounds.min);
    expect(clampDetailWidth(99)).toBe(detailWidthBounds.max);
    expect(clampDetailWidth(55.6)).toBe(56);
  });
});
