import { linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentHarness, type AgentHarness } from '../executor/test-support/agent-harness';
import { openToolCaller, type ToolCaller } from '../executor/test-support/tool-caller';

/**
 * Issue 30, H4: a workspace file hard-linked to a file outside (pnpm's global store is laid out
 * this way). Vigil's file tools replace the workspace's link with a new file; they never write
 * through it, so the file outside keeps its content and its inode.
 */
let harness: AgentHarness;
let call: ToolCaller;
let store: string;

beforeEach(async () => {
  harness = await createAgentHarness();
  store = path.join(harness.base, 'global-store');
  mkdirSync(store);
  call = await openToolCaller(harness);
});
afterEach(async () => {
  await harness.close();
});

/** A file outside the workspace and its hard link inside; both names share one inode. */
function linkedPair(name: string, content: string): { readonly outside: string; readonly inside: string } {
  const outside = path.join(store, name);
  const inside = path.join(harness.workspace, name);
  writeFileSync(outside, content);
  linkSync(outside, inside);
  expect(statSync(inside).ino).toBe(statSync(outside).ino);
  expect(statSync(outside).nlink).toBe(2);
  return { outside, inside };
}

describe('file tools on a file hard-linked to a file outside the workspace', () => {
  it('write_file replaces the link: the outside file keeps its content, and the two are separate files', async () => {
    const { outside, inside } = linkedPair('index.js', 'module.exports = 1;\n');
    await call('write_file', { path: 'index.js', content: 'require("child_process");\n' });
    expect(readFileSync(inside, 'utf8')).toBe('require("child_process");\n');
    expect(readFileSync(outside, 'utf8')).toBe('module.exports = 1;\n');
    expect(statSync(inside).ino).not.toBe(statSync(outside).ino);
    expect(statSync(outside).nlink).toBe(1);
  });

  it('patch replaces the link: the outside file keeps its content, and the two are separate files', async () => {
    const { outside, inside } = linkedPair('lib.js', 'export const answer = 42;\n');
    await call('patch', { path: 'lib.js', old_string: '42', new_string: 'globalThis.pwned = 1' });
    expect(readFileSync(inside, 'utf8')).toBe('export const answer = globalThis.pwned = 1;\n');
    expect(readFileSync(outside, 'utf8')).toBe('export const answer = 42;\n');
    expect(statSync(inside).ino).not.toBe(statSync(outside).ino);
    expect(statSync(outside).nlink).toBe(1);
  });

  it('each write replaces whatever the name links to now, so every file outside keeps its content', async () => {
    const { outside, inside } = linkedPair('restored.js', 'v1\n');
    await call('write_file', { path: 'restored.js', content: 'v2\n' });
    linkSync(inside, path.join(store, 'restored-again.js'));
    await call('write_file', { path: 'restored.js', content: 'v3\n' });
    expect(readFileSync(path.join(store, 'restored-again.js'), 'utf8')).toBe('v2\n');
    expect(readFileSync(outside, 'utf8')).toBe('v1\n');
  });
});
