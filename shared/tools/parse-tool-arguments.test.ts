import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { parseToolArguments } from './parse-tool-arguments';
import { toolInputJsonSchema } from './tool-json-schema';
import { toolDefinition, toolDefinitions } from './tool-registry';
import { describeTool } from './describe-tool';

/** The AppError a parse throws. */
function refusal(name: string, raw: unknown): AppError {
  try {
    parseToolArguments(name, raw);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${name} accepted ${JSON.stringify(raw)}`);
}

describe('parseToolArguments', () => {
  it('refuses a write_file without content, naming the field and saying nothing was written (seed 004)', () => {
    const error = refusal('write_file', { path: 'notes.md' });
    expect(error.code).toBe('invalid_request');
    expect(error.details).toMatchObject({ tool: 'write_file', field: 'content', missing: ['content'] });
    expect(error.message).toContain('write_file was not run');
    expect(error.message).toContain('the required field "content" is missing');
    expect(error.message).toContain('No file was created or modified');
    expect(error.message).toContain('Send the whole call again');
    expect(error.message).toContain('"content": ""');
  });

  it('accepts an explicit empty content, and names every missing field at once', () => {
    expect(parseToolArguments('write_file', { path: 'a.txt', content: '' })).toEqual({ path: 'a.txt', content: '' });
    const error = refusal('write_file', {});
    expect(error.details).toMatchObject({ missing: ['path', 'content'] });
    expect(refusal('write_file', { content: 'x' }).details).toMatchObject({ field: 'path', missing: ['path'] });
    expect(refusal('patch', { path: 'a', old_string: 'x' }).details).toMatchObject({ missing: ['new_string'] });
    expect(parseToolArguments('patch', { path: 'a', old_string: 'x', new_string: '' })).toMatchObject({
      new_string: '',
    });
  });

  it('treats a key that is present but undefined as missing, not as empty', () => {
    expect(refusal('write_file', { path: 'a', content: undefined }).details).toMatchObject({ missing: ['content'] });
  });

  it('names the type received for a wrong type', () => {
    expect(refusal('write_file', { path: 'a', content: { text: 'x' } }).message).toContain(
      'the field "content" must be a string, but got an object',
    );
    expect(refusal('write_file', { path: 'a', content: null }).message).toContain('must be a string, but got null');
    expect(refusal('write_file', { path: 'a', content: 42 }).message).toContain('got the number 42');
    expect(refusal('write_file', { path: ['a'], content: '' }).message).toContain(
      '"path" must be a string, but got an array',
    );
    expect(refusal('read_file', { path: 'a', offset: 1.5 }).message).toContain(
      '"offset" must be a whole number, but got the number 1.5',
    );
    expect(refusal('patch', { path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' }).message).toContain(
      'must be a boolean, but got a string',
    );
    expect(refusal('write_file', 'path=a').message).toContain('must be a JSON object, but got a string');
    expect(refusal('write_file', null).message).toContain('must be a JSON object, but got null');
  });

  it('refuses unknown fields and suggests the intended one', () => {
    const error = refusal('write_file', { path: 'a', contents: 'x' });
    expect(error.message).toContain('"contents" (did you mean "content"?) is not a field of write_file');
    expect(error.message).toContain('the required field "content" is missing');
  });

  it('refuses empty paths, an empty old_string, out-of-range numbers and broken Unicode', () => {
    expect(refusal('write_file', { path: '', content: 'x' }).message).toContain('"path" is empty');
    expect(refusal('patch', { path: 'a', old_string: '', new_string: 'x' }).message).toContain('"old_string" is empty');
    expect(refusal('read_file', { path: 'a', offset: 0 }).message).toContain('"offset" must be 1 or more');
    expect(refusal('write_file', { path: 'a', content: 'bad \ud800' }).message).toContain('lone UTF-16 surrogate');
  });

  it('refuses an unknown tool with the list of tools', () => {
    const error = refusal('write_files', {});
    expect(error.code).toBe('unknown_call');
    expect(error.message).toContain('did you mean "write_file"?');
  });
});

describe('tool definitions', () => {
  it('produce MCP JSON Schemas whose `required` matches the schema, with descriptions on every field', () => {
    const required = Object.fromEntries(
      toolDefinitions.map((definition) => [definition.name, toolInputJsonSchema(definition)['required']]),
    );
    expect(required).toMatchObject({
      read_file: ['path'],
      write_file: ['path', 'content'],
      patch: ['path', 'old_string', 'new_string'],
    });
    for (const definition of toolDefinitions) {
      const schema = toolInputJsonSchema(definition);
      expect(schema['additionalProperties']).toBe(false);
      for (const field of Object.values(schema['properties'] as Record<string, { description?: string }>)) {
        expect(field.description?.length).toBeGreaterThan(10);
      }
    }
  });

  it('document themselves from the same definition', () => {
    const text = describeTool(toolDefinition('write_file'));
    expect(text).toContain('### `write_file`');
    expect(text).toContain('| `content` | string | required |');
    expect(text).toContain('| `dirs_created` | string[] | always |');
  });
});
