import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { readTurnMark, turnMetaKey } from './turn-mark';

describe('readTurnMark', () => {
  it('reads an id, or an id with the user message, and nothing when the key is absent', () => {
    expect(readTurnMark(undefined)).toBeUndefined();
    expect(readTurnMark({ progressToken: 1 })).toBeUndefined();
    expect(readTurnMark({ [turnMetaKey]: 't-1' })).toEqual({ id: 't-1' });
    expect(readTurnMark({ [turnMetaKey]: { id: 't-2', userMessage: 'fix it' } })).toEqual({
      id: 't-2',
      userMessage: 'fix it',
    });
  });

  it('refuses a malformed mark, naming the key', () => {
    for (const value of [42, '', { userMessage: 'no id' }, { id: 'x', extra: true }]) {
      let caught: unknown;
      try {
        readTurnMark({ [turnMetaKey]: value });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('invalid_request');
      expect((caught as AppError).details?.['field']).toMatch(/^_meta\.vigil\/turn/);
    }
  });
});
