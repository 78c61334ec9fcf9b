import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../shared/tools/read-file-tool';
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

async function read(args: Record<string, unknown>): Promise<ReturnType<typeof readFileTool.output.parse>> {
  return readFileTool.output.parse(await call('read_file', args));
}

describe('read_file', () => {
  it('returns numbered lines with the total, and pages with offset and limit', async () => {
    writeFileSync(
      path.join(project, 'list.txt'),
      Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n'),
    );
    const whole = await read({ path: 'list.txt' });
    expect(whole).toMatchObject({
      offset: 1,
      lines_returned: 10,
      total_lines: 10,
      truncated: false,
      line_endings: 'lf',
      bom: false,
    });
    expect(whole.content.split('\n')[0]).toBe('     1\tline 1');
    expect(whole.next_offset).toBeUndefined();
    const page = await read({ path: 'list.txt', offset: 4, limit: 3 });
    expect(page).toMatchObject({ offset: 4, lines_returned: 3, total_lines: 10, truncated: true, next_offset: 7 });
    expect(page.content).toBe('     4\tline 4\n     5\tline 5\n     6\tline 6');
    const past = await read({ path: 'list.txt', offset: 50 });
    expect(past).toMatchObject({ lines_returned: 0, content: '', truncated: false });
    expect(past.note).toContain('past its end');
  });

  it('hides CRLF endings and a BOM from the content but reports them', async () => {
    writeFileSync(path.join(project, 'win.txt'), '\uFEFFfirst\r\nsecond\r\n');
    expect(await read({ path: 'win.txt' })).toMatchObject({
      content: '     1\tfirst\n     2\tsecond',
      total_lines: 2,
      line_endings: 'crlf',
      bom: true,
    });
  });

  it('reads a file larger than its window in one streamed pass and stops at the character budget', async () => {
    const line = 'x'.repeat(99);
    writeFileSync(path.join(project, 'big.txt'), `${line}\n`.repeat(20_000));
    const result = await read({ path: 'big.txt', limit: 20_000 });
    expect(result.total_lines).toBe(20_000);
    expect(result.truncated).toBe(true);
    expect(result.lines_returned).toBeLessThan(20_000);
    expect(result.next_offset).toBe(result.lines_returned + 1);
    expect(result.content.length).toBeLessThanOrEqual(100_000);
  });

  it('shortens an enormous line and says so', async () => {
    writeFileSync(path.join(project, 'min.js'), `${'a'.repeat(3_000_000)}\nshort\n`);
    const result = await read({ path: 'min.js' });
    expect(result.long_lines_shortened).toBe(1);
    expect(result.total_lines).toBe(2);
    expect(result.content).toContain('[line shortened: 2998000 more characters]');
    expect(result.content.endsWith('     2\tshort')).toBe(true);
  });

  it('refuses binary and non-UTF-8 files explicitly instead of showing mojibake', async () => {
    writeFileSync(path.join(project, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
    writeFileSync(path.join(project, 'latin1.txt'), Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
    await expect(call('read_file', { path: 'image.png' })).rejects.toMatchObject({
      code: 'unsupported',
      details: { reason: 'binary' },
    });
    await expect(call('read_file', { path: 'latin1.txt' })).rejects.toMatchObject({
      code: 'unsupported',
      details: { reason: 'not_utf8', offset: 3 },
    });
  });

  it('reports an empty file, a directory with its entries and a missing file with a suggestion', async () => {
    writeFileSync(path.join(project, 'empty.txt'), '');
    expect(await read({ path: 'empty.txt' })).toMatchObject({
      content: '',
      total_lines: 0,
      line_endings: 'none',
      note: 'The file is empty.',
    });
    mkdirSync(path.join(project, 'src'));
    writeFileSync(path.join(project, 'src', 'index.ts'), '');
    await expect(call('read_file', { path: 'src' })).rejects.toMatchObject({
      code: 'wrong_kind',
      message: expect.stringContaining('index.ts') as string,
    });
    await expect(call('read_file', { path: 'src/indx.ts' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining(`Did you mean ${path.join(project, 'src', 'index.ts')}?`) as string,
    });
  });
});
