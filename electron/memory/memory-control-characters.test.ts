import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
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

describe('memory refuses control characters that would reach a terminal', () => {
  it('refuses ESC, naming the character, its position in what was sent and the field; nothing is applied', () => {
    const error = refusal(() => applyOperations(['kept'], [{ action: 'add', content: 'x\u001b[31mred' }], context));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('U+001B ESC at position 2 (field "operations.0.content")');
    expect(error.details).toMatchObject({ field: 'operations.0.content', codePoint: 0x1b, position: 2 });
    // Leading whitespace that strip() removes still counts: the position is in the text as sent.
    expect(refusal(() => applyOperations([], [{ action: 'add', content: '  🎉\u0007' }], context)).message).toContain(
      'U+0007 BEL at position 4',
    );
  });

  it('refuses NUL inside an entry, and stores a CR LF or a lone CR as the newline Hermes reads it as, in replace too', () => {
    expect(refusal(() => applyOperations([], [{ action: 'add', content: 'a\u0000b' }], context)).message).toContain(
      'U+0000 NUL at position 2',
    );
    expect(
      refusal(() =>
        applyOperations(['old entry'], [{ action: 'replace', oldText: 'old', content: 'one\u001btwo' }], context),
      ).message,
    ).toContain('U+001B ESC at position 4 (field "operations.0.content")');
    // Hermes reads with universal newlines: no CR ever reaches the file, so none reaches a terminal.
    expect(
      applyOperations(['old entry'], [{ action: 'replace', oldText: 'old', content: 'one\r\ntwo\rthree' }], context)
        .entries,
    ).toEqual(['one\ntwo\nthree']);
  });

  it('accepts tabs and newlines inside, and what strip() removes at the ends (a trailing CR LF)', () => {
    const result = applyOperations([], [{ action: 'add', content: 'name:\tvalue\nsecond line\r\n' }], context);
    expect(result.entries).toEqual(['name:\tvalue\nsecond line']);
  });
});
