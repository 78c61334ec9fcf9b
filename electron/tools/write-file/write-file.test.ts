import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../shared/tools/write-file-tool';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';
import { openToolCaller, type ToolCaller } from '../../executor/test-support/tool-caller';

let harness: AgentHarness;
let call: ToolCaller;
let project: string;
let outside: string;

beforeEach(async () => {
  harness = await createAgentHarness();
  project = harness.workspace;
  outside = path.join(harness.base, 'outside');
  mkdirSync(outside);
  call = await openToolCaller(harness);
});
afterEach(async () => {
  await harness.close();
});

/** The error code and message a call (through the executor, as an agent makes it) fails with. */
async function failure(raw: unknown, name = 'write_file'): Promise<{ code: string; message: string }> {
  try {
    await call(name, raw);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error('the call succeeded');
}

describe('write_file', () => {
  it('refuses seven dropped-content calls in a row and creates no file (seed 004)', async () => {
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const { code, message } = await failure({ path: `oops-${attempt}.md` });
      expect(code).toBe('invalid_request');
      expect(message).toContain('"content" is missing');
      expect(message).toContain('No file was created or modified');
    }
    expect(readdirSync(project)).toEqual([]);
    await expect(failure({ content: 'x' })).resolves.toMatchObject({ code: 'invalid_request' });
    await expect(failure({ path: 'a.md', content: { text: 'x' } })).resolves.toMatchObject({ code: 'invalid_request' });
    expect(readdirSync(project)).toEqual([]);
  });

  it('writes an explicit empty content as a 0-byte file and truncates an existing one', async () => {
    writeFileSync(path.join(project, 'full.txt'), 'data');
    expect(await call('write_file', { path: 'full.txt', content: '' })).toEqual({
      path: path.join(project, 'full.txt'),
      bytes_written: 0,
      created: false,
      dirs_created: [],
    });
    expect(statSync(path.join(project, 'full.txt')).size).toBe(0);
  });

  it('reports the resolved path, the bytes, whether the file is new and the directories it created', async () => {
    mkdirSync(path.join(project, 'src'));
    const result = writeFileTool.output.parse(await call('write_file', { path: 'src/a/b/c.ts', content: 'héllo\n' }));
    expect(result).toEqual({
      path: path.join(project, 'src', 'a', 'b', 'c.ts'),
      bytes_written: 7,
      created: true,
      dirs_created: [path.join(project, 'src', 'a'), path.join(project, 'src', 'a', 'b')],
    });
    const again = await call('write_file', { path: 'src/a/b/c.ts', content: 'x' });
    expect(again).toMatchObject({ created: false, dirs_created: [] });
  });

  it('round-trips quotes, $, backticks, backslashes and unicode exactly, keeping the mode', async () => {
    const target = path.join(project, 'run.sh');
    writeFileSync(target, 'old');
    chmodSync(target, 0o755);
    const content = `#!/bin/sh\necho 'single' "double" $HOME \`date\` \\n C:\\dir 日本 🎉 \u0000 end\n`;
    await call('write_file', { path: 'run.sh', content });
    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(statSync(target).mode & 0o777).toBe(0o755);
  });

  it('refuses every way out of the workspace, writing nothing outside', async () => {
    symlinkSync(outside, path.join(project, 'linked-dir'));
    writeFileSync(path.join(outside, 'target.txt'), 'outside original');
    symlinkSync(path.join(outside, 'target.txt'), path.join(project, 'linked-file'));
    symlinkSync(path.join(outside, 'created-through-link.txt'), path.join(project, 'dangling'));
    const attempts = [
      '../outside-escape.txt',
      '../outside/x.txt',
      path.join(outside, 'abs.txt'),
      'linked-dir/x.txt',
      'linked-file',
      'dangling',
      '~/x.txt',
    ];
    for (const attempt of attempts) {
      const { code, message } = await failure({ path: attempt, content: 'pwned' });
      expect([attempt, code]).toEqual([attempt, 'outside_workspace']);
      expect(message).toContain(project);
    }
    expect(readdirSync(outside)).toEqual(['target.txt']);
    expect(readFileSync(path.join(outside, 'target.txt'), 'utf8')).toBe('outside original');
    expect(existsSync(path.join(harness.home, 'x.txt'))).toBe(false);
  });

  it('refuses credential locations inside a root, a directory target and a trailing separator', async () => {
    const wide = await openToolCaller(harness, { roots: [harness.base], cwd: project });
    mkdirSync(path.join(harness.home, '.ssh'));
    await expect(wide('write_file', { path: '~/.ssh/authorized_keys', content: 'key' })).rejects.toMatchObject({
      code: 'forbidden_path',
    });
    expect(existsSync(path.join(harness.home, '.ssh', 'authorized_keys'))).toBe(false);
    mkdirSync(path.join(project, 'folder'));
    await expect(failure({ path: 'folder', content: 'x' })).resolves.toMatchObject({ code: 'wrong_kind' });
    await expect(failure({ path: 'newdir/', content: 'x' })).resolves.toMatchObject({ code: 'invalid_request' });
    expect(existsSync(path.join(project, 'newdir'))).toBe(false);
  });

  it('refuses an unknown tool and a non-file tool by name', async () => {
    await expect(failure({}, 'rm_rf')).resolves.toMatchObject({ code: 'unknown_call' });
  });
});
