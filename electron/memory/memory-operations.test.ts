import { describe, expect, it } from 'vitest';
import type { MemoryOperation } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { entriesChars } from './memory-format';
import { applyOperations, type OperationContext } from './memory-operations';

const context: OperationContext = {
  fileName: 'MEMORY.md',
  limit: 2200,
  fieldOf: (index, property) => `operations.${index}.${property}`,
};

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("memory operations (the memory tool's semantics)", () => {
  it('adds an entry, stripped; an exact duplicate is a no-op that says so', () => {
    const added = applyOperations(['one'], [{ action: 'add', content: '  two \n' }], context);
    expect(added.entries).toEqual(['one', 'two']);
    expect(added.applied).toEqual([{ action: 'add', outcome: 'added', entry: 'two' }]);
    expect(added.isChanged).toBe(true);
    const duplicate = applyOperations(['one'], [{ action: 'add', content: 'one' }], context);
    expect(duplicate.isChanged).toBe(false);
    expect(duplicate.applied[0]?.outcome).toBe('already-present');
  });

  it('refuses an add over the limit with the usage and the current entries', () => {
    const entries = ['x'.repeat(2000)];
    const error = refusal(() => applyOperations(entries, [{ action: 'add', content: 'y'.repeat(200) }], context));
    expect(error.code).toBe('limit_exceeded');
    expect(error.message).toContain('2,000/2,200');
    expect(error.message).toContain('adding this entry (200 characters) would put it at 2,203');
    expect(error.details).toMatchObject({ usage: { chars: 2000, limit: 2200 }, entries });
    // Exactly at the limit is allowed: 2,000 + 3 (delimiter) + 197.
    expect(applyOperations(entries, [{ action: 'add', content: 'y'.repeat(197) }], context).entries).toHaveLength(2);
  });

  it('counts emoji as one character each against the limit', () => {
    const emoji = '👍'.repeat(1000);
    const result = applyOperations(
      [],
      [
        { action: 'add', content: emoji },
        { action: 'add', content: '🎉'.repeat(1197) },
      ],
      context,
    );
    expect(entriesChars(result.entries)).toBe(2200);
    expect(refusal(() => applyOperations(result.entries, [{ action: 'add', content: 'z' }], context)).code).toBe(
      'limit_exceeded',
    );
  });

  it('replaces the whole entry matched by a unique substring', () => {
    const result = applyOperations(
      ['likes tea', 'works on Vigil in TypeScript'],
      [{ action: 'replace', oldText: 'Vigil', content: 'works on Vigil and Hermes' }],
      context,
    );
    expect(result.entries).toEqual(['likes tea', 'works on Vigil and Hermes']);
    expect(result.discarded).toEqual(['works on Vigil in TypeScript']);
  });

  it('refuses a replace or remove that matches nothing, with the current entries', () => {
    for (const operation of [
      { action: 'replace', oldText: 'coffee', content: 'x' },
      { action: 'remove', oldText: 'coffee' },
    ] as const) {
      const error = refusal(() => applyOperations(['likes tea'], [operation], context));
      expect(error.code).toBe('no_match');
      expect(error.message).toContain('No entry in MEMORY.md contains "coffee"');
      expect(error.details).toMatchObject({ entries: ['likes tea'] });
    }
  });

  it('refuses a substring that several entries contain, with 80-character previews', () => {
    const long = `the user ${'really '.repeat(20)}likes tea`;
    const error = refusal(() =>
      applyOperations([long, 'the user likes 🍵 too', 'other'], [{ action: 'remove', oldText: 'the user' }], context),
    );
    expect(error.code).toBe('ambiguous_match');
    const matches = (error.details as { matches: string[] }).matches;
    expect(matches).toEqual([`${long.slice(0, 80)}...`, 'the user likes 🍵 too']);
  });

  it('removes the matched entry', () => {
    expect(applyOperations(['a tea', 'b coffee'], [{ action: 'remove', oldText: 'tea' }], context).entries).toEqual([
      'b coffee',
    ]);
  });

  it('refuses empty text and text holding a delimiter line, naming the field', () => {
    const empty = refusal(() => applyOperations([], [{ action: 'add', content: ' \n ' }], context));
    expect(empty.code).toBe('invalid_request');
    expect(empty.details).toMatchObject({ field: 'operations.0.content' });
    const noNeedle = refusal(() => applyOperations(['a'], [{ action: 'remove', oldText: '' }], context));
    expect(noNeedle.details).toMatchObject({ field: 'operations.0.oldText' });
    // "\r\n§\r\n" reads back as "\n§\n" (universal newlines), so it would split too.
    for (const content of ['one\n§\ntwo', 'one\r\n§\r\ntwo', 'one\r§\rtwo']) {
      const error = refusal(() => applyOperations([], [{ action: 'add', content }], context));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('separates entries');
    }
    expect(applyOperations([], [{ action: 'add', content: 'costs 5 § each' }], context).entries).toEqual([
      'costs 5 § each',
    ]);
    // A § line with spaces around it is not a delimiter for Hermes: it stays inside the entry.
    expect(applyOperations([], [{ action: 'add', content: 'one\n § \ntwo' }], context).entries).toEqual([
      'one\n § \ntwo',
    ]);
    expect(applyOperations([], [{ action: 'add', content: 'one\r\ntwo\r\n' }], context).entries).toEqual(['one\ntwo']);
    expect(refusal(() => applyOperations([], [{ action: 'add', content: 'bad \ud800 text' }], context)).code).toBe(
      'invalid_request',
    );
  });

  it('applies a batch all or nothing, each operation seeing the previous ones', () => {
    const start = ['a one', 'b two'];
    const batch: MemoryOperation[] = [
      { action: 'add', content: 'c three' },
      { action: 'replace', oldText: 'three', content: 'c THREE' },
      { action: 'remove', oldText: 'a one' },
    ];
    expect(applyOperations(start, batch, context).entries).toEqual(['b two', 'c THREE']);
    const failing: MemoryOperation[] = [
      { action: 'add', content: 'c three' },
      { action: 'remove', oldText: 'missing' },
    ];
    const error = refusal(() => applyOperations(start, failing, context));
    expect(error.code).toBe('no_match');
    expect(error.details).toMatchObject({ operation: 1 });
    expect(start).toEqual(['a one', 'b two']);
  });

  it('checks a batch against its final state only', () => {
    const full = ['x'.repeat(2100)];
    // Adding first would overflow on its own, but the removal in the same batch makes room.
    const result = applyOperations(
      full,
      [
        { action: 'add', content: 'y'.repeat(150) },
        { action: 'remove', oldText: 'xxx' },
      ],
      context,
    );
    expect(result.entries).toEqual(['y'.repeat(150)]);
    const error = refusal(() =>
      applyOperations(
        full,
        [
          { action: 'add', content: 'y'.repeat(150) },
          { action: 'add', content: 'z' },
        ],
        context,
      ),
    );
    expect(error.code).toBe('limit_exceeded');
    expect(error.message).toContain('these 2 operations');
  });

  it('lets a file that is already over its limit shrink, but not grow', () => {
    const over = ['x'.repeat(1500), 'y'.repeat(1500)];
    expect(applyOperations(over, [{ action: 'replace', oldText: 'yyy', content: 'short' }], context).entries).toEqual([
      'x'.repeat(1500),
      'short',
    ]);
    expect(refusal(() => applyOperations(over, [{ action: 'add', content: 'z' }], context)).code).toBe(
      'limit_exceeded',
    );
  });

  it('merges a replacement that equals another entry instead of writing a duplicate', () => {
    const result = applyOperations(
      ['tea', 'coffee'],
      [{ action: 'replace', oldText: 'coffee', content: 'tea' }],
      context,
    );
    expect(result.entries).toEqual(['tea']);
  });
});
