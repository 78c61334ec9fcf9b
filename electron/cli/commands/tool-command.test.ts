import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let base: string;
let remove: () => Promise<void>;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-tool-cli-'));
  project = path.join(base, 'project');
  mkdirSync(project);
  // HOME beside the project, not above it: a root holding the home folder is refused.
  env = { VIGIL_HOME: path.join(base, 'vigil-home'), HOME: path.join(base, 'user') };
});
afterEach(async () => {
  await remove();
});

/** Runs `vigil tool NAME --args JSON --cwd project` and parses what it printed. */
async function tool(
  name: string,
  args: unknown,
  extra: readonly string[] = [],
): Promise<{ code: number | null; json: Record<string, unknown>; stderr: string }> {
  const run = await runVigil(
    ['tool', name, '--args', typeof args === 'string' ? args : JSON.stringify(args), '--cwd', project, ...extra],
    { env },
  );
  return {
    code: run.code,
    json: (run.stdout === '' ? {} : JSON.parse(run.stdout)) as Record<string, unknown>,
    stderr: run.stderr,
  };
}

describe('vigil tool', () => {
  it('refuses a write_file without content with exit 1, naming the field, and creates nothing (seed 004)', async () => {
    const [dropped, empty] = await Promise.all([
      tool('write_file', { path: 'oops.md' }),
      tool('write_file', { path: 'empty.md', content: '' }),
    ]);
    expect(dropped.code).toBe(1);
    expect(dropped.json).toMatchObject({
      error: { code: 'invalid_request', details: { field: 'content', missing: ['content'] } },
    });
    expect(dropped.stderr).toContain('"content" is missing');
    expect(existsSync(path.join(project, 'oops.md'))).toBe(false);
    expect(empty.code).toBe(0);
    expect(empty.json).toEqual({
      path: path.join(project, 'empty.md'),
      bytes_written: 0,
      created: true,
      dirs_created: [],
    });
    expect(readFileSync(path.join(project, 'empty.md'), 'utf8')).toBe('');
  });

  it('reads, writes and patches like an agent, relative to --cwd', async () => {
    const written = await tool('write_file', { path: 'src/app.ts', content: 'const a = 1;\r\nconst b = 2;\r\n' });
    expect(written).toMatchObject({ code: 0, json: { created: true, dirs_created: [path.join(project, 'src')] } });
    const patched = await tool('patch', { path: 'src/app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' });
    expect(patched).toMatchObject({ code: 0, json: { replacements: 1, lines: [2] } });
    const read = await tool('read_file', { path: 'src/app.ts' });
    expect(read).toMatchObject({
      code: 0,
      json: { content: '     1\tconst a = 1;\n     2\tconst b = 3;', line_endings: 'crlf' },
    });
  });

  it('confines paths to --root (default: --cwd) and protects the Vigil data folder', async () => {
    const shared = path.join(base, 'shared');
    mkdirSync(shared);
    writeFileSync(path.join(shared, 'outside.txt'), 'outside');
    const [outside, widened, vigilHome] = await Promise.all([
      tool('read_file', { path: '../shared/outside.txt' }),
      tool('read_file', { path: '../shared/outside.txt' }, ['--root', project, '--root', shared]),
      // A root that holds the data folder is refused as a whole: nothing in it is written.
      tool('write_file', { path: '../vigil-home/serve.json', content: '{}' }, ['--root', base]),
    ]);
    expect(outside).toMatchObject({
      code: 1,
      json: { error: { code: 'outside_workspace', details: { roots: [project] } } },
    });
    expect(widened).toMatchObject({ code: 0, json: { content: '     1\toutside' } });
    expect(vigilHome).toMatchObject({
      code: 1,
      json: { error: { code: 'forbidden_path', details: { field: 'roots' } } },
    });
    // The data folder now holds the calls' session logs, but no agent wrote into it.
    expect(readdirSync(base).sort()).toEqual(['project', 'shared', 'vigil-home']);
    expect(existsSync(path.join(base, 'vigil-home', 'serve.json'))).toBe(false);
  });

  it('reports wrong usage with exit 2 and an unknown tool with exit 1', async () => {
    const [badJson, noArgs, unknown] = await Promise.all([
      tool('read_file', '{"path": '),
      runVigil(['tool', 'read_file'], { env }),
      tool('delete_everything', {}),
    ]);
    expect(badJson.code).toBe(2);
    expect(noArgs.code).toBe(2);
    expect(noArgs.stderr).toContain('--args');
    expect(unknown).toMatchObject({ code: 1, json: { error: { code: 'unknown_call' } } });
  });

  it('reads the arguments from standard input with --args -', async () => {
    const content = 'x'.repeat(300_000);
    const run = await runVigil(['tool', 'write_file', '--args', '-', '--cwd', project], {
      env,
      input: JSON.stringify({ path: 'big.txt', content }),
    });
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(project, 'big.txt'), 'utf8')).toBe(content);
  });
});
