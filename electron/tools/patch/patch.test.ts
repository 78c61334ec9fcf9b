import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchTool } from '../../../shared/tools/patch-tool';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';
import { openToolCaller, type ToolCaller } from '../../executor/test-support/tool-caller';

let harness: AgentHarness;
let call: ToolCaller;
let project: string;

beforeEach(async () => {
  harness = await createAgentHarness();
  project = harness.workspace;
  call = await openToolCaller(harness);
});
afterEach(async () => {
  await harness.close();
});

const source = [
  'function greet(name) {',
  '  return "hello " + name;',
  '}',
  '',
  'function part(name) {',
  '  return "bye " + name;',
  '}',
  '',
].join('\n');

async function patch(args: Record<string, unknown>): Promise<ReturnType<typeof patchTool.output.parse>> {
  return patchTool.output.parse(await call('patch', args));
}

async function refusal(
  args: Record<string, unknown>,
): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await call('patch', args);
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('the patch succeeded');
}

describe('patch', () => {
  it('replaces one exact match atomically (a new inode), keeping the mode, and returns a diff', async () => {
    const target = path.join(project, 'greet.js');
    writeFileSync(target, source);
    chmodSync(target, 0o640);
    const inode = statSync(target).ino;
    const result = await patch({ path: 'greet.js', old_string: '"bye "', new_string: '"goodbye "' });
    expect(result).toMatchObject({ path: target, replacements: 1, lines: [6], bytes_written: source.length + 4 });
    expect(result.diff).toContain('-  return "bye " + name;');
    expect(result.diff).toContain('+  return "goodbye " + name;');
    expect(readFileSync(target, 'utf8')).toBe(source.replace('"bye "', '"goodbye "'));
    expect(statSync(target).ino).not.toBe(inode);
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it('refuses several matches with their line numbers, and replaces them all with replace_all', async () => {
    writeFileSync(path.join(project, 'greet.js'), source);
    const error = await refusal({ path: 'greet.js', old_string: 'return', new_string: 'yield' });
    expect(error.code).toBe('ambiguous_match');
    expect(error.message).toContain('occurs 2 times');
    expect(error.details['lines']).toEqual([2, 6]);
    expect(readFileSync(path.join(project, 'greet.js'), 'utf8')).toBe(source);
    const result = await patch({ path: 'greet.js', old_string: 'return', new_string: 'yield', replace_all: true });
    expect(result).toMatchObject({ replacements: 2, lines: [2, 6] });
    expect(readFileSync(path.join(project, 'greet.js'), 'utf8')).toBe(source.replaceAll('return', 'yield'));
  });

  it('refuses no match, showing the closest lines (or the whitespace that differs)', async () => {
    writeFileSync(path.join(project, 'greet.js'), source);
    const similar = await refusal({
      path: 'greet.js',
      old_string: 'function part(nam) {\n  return "by " + nam;',
      new_string: 'x',
    });
    expect(similar.code).toBe('no_match');
    expect(similar.message).toContain('closest text is at lines 5-6');
    expect(similar.message).toContain('     6\t  return "bye " + name;');
    const spacing = await refusal({
      path: 'greet.js',
      old_string: 'function greet(name) {\n    return "hello " + name;',
      new_string: 'x',
    });
    expect(spacing.message).toContain('matches lines 1-2 only if whitespace is ignored');
    const numbered = await refusal({
      path: 'greet.js',
      old_string: '     2\t  return "hello " + name;',
      new_string: 'x',
    });
    expect(numbered.message).toContain('line-number prefixes');
    expect(readFileSync(path.join(project, 'greet.js'), 'utf8')).toBe(source);
  });

  it('keeps CRLF endings and a BOM, matching an LF old_string against a CRLF file', async () => {
    const target = path.join(project, 'win.txt');
    writeFileSync(target, '\uFEFFone\r\ntwo\r\nthree\r\n');
    const result = await patch({ path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nextra' });
    expect(result.lines).toEqual([1]);
    expect(readFileSync(target).toString('latin1')).toBe(
      Buffer.from('\uFEFFuno\r\ndos\r\nextra\r\nthree\r\n').toString('latin1'),
    );
  });

  it('deletes with an empty new_string and refuses identical strings, a missing file and a non-UTF-8 file', async () => {
    writeFileSync(path.join(project, 'greet.js'), source);
    await patch({
      path: 'greet.js',
      old_string: '\nfunction part(name) {\n  return "bye " + name;\n}\n',
      new_string: '',
    });
    expect(readFileSync(path.join(project, 'greet.js'), 'utf8')).toBe(
      'function greet(name) {\n  return "hello " + name;\n}\n',
    );
    expect((await refusal({ path: 'greet.js', old_string: 'greet', new_string: 'greet' })).code).toBe(
      'invalid_request',
    );
    const missing = await refusal({ path: 'nope.js', old_string: 'a', new_string: 'b' });
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain('use write_file');
    writeFileSync(path.join(project, 'latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    expect(await refusal({ path: 'latin1.txt', old_string: 'caf', new_string: 'tea' })).toMatchObject({
      code: 'unsupported',
    });
    expect(readFileSync(path.join(project, 'latin1.txt')).toString('latin1')).toBe('caf\xe9\n');
  });

  it('refuses paths outside the workspace before reading anything', async () => {
    expect((await refusal({ path: '../../etc-like.txt', old_string: 'a', new_string: 'b' })).code).toBe(
      'outside_workspace',
    );
  });
});
