import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { memoryToolFieldName, memoryToolMutation, memoryToolResult } from './memory-tool';
import { parseToolArguments } from './parse-tool-arguments';
import { toolInputJsonSchema } from './tool-json-schema';
import { toolDefinition } from './tool-registry';

function refusal(raw: unknown): AppError {
  try {
    parseToolArguments('memory', raw);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

describe('the memory tool schema', () => {
  it('is registered, with action and target required in its JSON Schema', () => {
    const schema = toolInputJsonSchema(toolDefinition('memory'));
    expect(schema['required']).toEqual(['action', 'target']);
    expect(schema['additionalProperties']).toBe(false);
  });

  it('refuses a call that leaves out the field its action needs, naming it (seed 004)', () => {
    const add = refusal({ action: 'add', target: 'memory' });
    expect(add.code).toBe('invalid_request');
    expect(add.details).toMatchObject({ field: 'content', missing: ['content'] });
    expect(add.message).toContain('memory was not run');
    const replace = refusal({ action: 'replace', target: 'user', content: 'x' });
    expect(replace.details).toMatchObject({ missing: ['old_text'] });
    const batch = refusal({
      action: 'batch',
      target: 'memory',
      operations: [{ action: 'add', content: 'a' }, { action: 'remove' }],
    });
    expect(batch.details).toMatchObject({ missing: ['operations.1.old_text'] });
    expect(refusal({ action: 'add', target: 'memory', content: '' }).message).toContain('is empty');
    expect(refusal({ action: 'add', target: 'notes', content: 'x' }).details).toMatchObject({ field: 'target' });
    expect(refusal({ action: 'add', target: 'memory', contnet: 'x' }).message).toContain('did you mean "content"');
  });

  it("turns a call into the service's mutation and names fields the way the agent spelled them", () => {
    const replace = parseToolArguments('memory', {
      action: 'replace',
      target: 'memory',
      old_text: 'tea',
      content: 'coffee',
    });
    expect(memoryToolMutation(replace)).toEqual({ action: 'replace', oldText: 'tea', content: 'coffee' });
    expect(memoryToolFieldName(replace)(0, 'oldText')).toBe('old_text');
    const batch = parseToolArguments('memory', {
      action: 'batch',
      target: 'memory',
      operations: [
        { action: 'remove', old_text: 'a' },
        { action: 'add', content: 'b' },
      ],
    });
    expect(memoryToolMutation(batch)).toEqual({
      action: 'batch',
      operations: [
        { action: 'remove', oldText: 'a' },
        { action: 'add', content: 'b' },
      ],
    });
    expect(memoryToolFieldName(batch)(1, 'content')).toBe('operations.1.content');
    expect(memoryToolMutation(parseToolArguments('memory', { action: 'read', target: 'user' }))).toBeUndefined();
  });

  it('reports usage as Hermes does', () => {
    const result = memoryToolResult({
      target: 'memory',
      outcome: 'changed',
      message: 'Entry added.',
      entries: ['a', 'b'],
      usage: { chars: 862, limit: 2200, percent: 39 },
      preserved: [],
    });
    expect(result).toMatchObject({ entry_count: 2, usage: '39% — 862/2,200 chars' });
  });
});
