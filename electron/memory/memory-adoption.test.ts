import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { checkAdoptedEntries, proposeEntries, recommendProposal } from './memory-adoption';

function byStrategy(text: string, limit = 2200) {
  return Object.fromEntries(proposeEntries(text, limit).map((proposal) => [proposal.strategy, proposal]));
}

describe('adopting a drifted file', () => {
  it('splits by delimiter however it was encoded', () => {
    const proposals = byStrategy('first\r\n§\r\nsecond\n § \nthird\n');
    expect(proposals['delimiter']?.entries).toEqual(['first', 'second', 'third']);
    expect(recommendProposal(Object.values(proposals))).toBe('delimiter');
  });

  it('never proposes a lone § line as an entry, whichever the split', () => {
    const proposals = byStrategy('# About the user\n\n§\n\nPrefers small commits.\n\nWorks in UTC+1.\nLikes tabs.\n');
    expect(proposals['blank-lines']?.entries).toEqual([
      '# About the user',
      'Prefers small commits.',
      'Works in UTC+1.\nLikes tabs.',
    ]);
    expect(proposals['lines']?.entries).toEqual([
      '# About the user',
      'Prefers small commits.',
      'Works in UTC+1.',
      'Likes tabs.',
    ]);
  });

  it('splits by Markdown headings, keeping each heading with its section', () => {
    const text =
      'Intro line\n# Vendor Master\nAcme: net 30\n\n## Standing Orders\n- ship Fridays\n# Pin Board\nremember X';
    const proposals = byStrategy(text);
    expect(proposals['headings']?.entries).toEqual([
      'Intro line',
      '# Vendor Master\nAcme: net 30',
      '## Standing Orders\n- ship Fridays',
      '# Pin Board\nremember X',
    ]);
    expect(recommendProposal(Object.values(proposals), text)).toBe('headings');
    expect(proposals['blank-lines']?.entries).toEqual([
      'Intro line\n# Vendor Master\nAcme: net 30',
      '## Standing Orders\n- ship Fridays\n# Pin Board\nremember X',
    ]);
  });

  it('says which proposals fit the limit and recommends one that does', () => {
    const text = `${'a'.repeat(1500)}\n\n${'b'.repeat(500)}`;
    const proposals = proposeEntries(text, 1375);
    expect(proposals.every((proposal) => !proposal.fits)).toBe(true);
    expect(recommendProposal(proposals)).not.toBeNull();
    const fitting = proposeEntries('# A\none\n# B\ntwo', 2200);
    expect(fitting.find((proposal) => proposal.strategy === 'headings')?.fits).toBe(true);
    expect(recommendProposal(proposeEntries('   ', 2200))).toBeNull();
  });

  it('checks confirmed entries against the limit before anything is written', () => {
    expect(checkAdoptedEntries([' one ', 'two', 'one'], 2200, 'MEMORY.md')).toEqual(['one', 'two']);
    const tooMuch = (() => {
      try {
        checkAdoptedEntries(['x'.repeat(1000), 'y'.repeat(1000), 'z'.repeat(500)], 2200, 'MEMORY.md');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(tooMuch).toBeInstanceOf(AppError);
    expect((tooMuch as AppError).code).toBe('limit_exceeded');
    expect(() => checkAdoptedEntries(['ok', '  '], 2200, 'MEMORY.md')).toThrow(/Entry 2 is empty/);
    expect(() => checkAdoptedEntries(['a\n§\nb'], 2200, 'MEMORY.md')).toThrow(/split it in two/);
  });
});
