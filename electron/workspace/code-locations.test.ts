import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors';
import { runVigil } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { anchorFile } from '../files/folder-anchor';
import { writeAnchoredFile } from '../files/write-anchored-file';
import { resolveFileTarget } from './resolve-file-target';
import { refuseUnsafeRoots } from './root-rules';

/** Issue 30: the file tools refuse what git or an agent would run (C1, M1), and roots are project folders (C2). */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function repo(): Promise<{ readonly base: string; readonly workspace: string; readonly home: string }> {
  const { dir: base, remove } = await makeTempDir('vigil-code-');
  cleanups.push(remove);
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', workspace]);
  return { base, workspace, home };
}

async function refusal(input: string, workspace: string, home: string): Promise<string> {
  try {
    await resolveFileTarget(
      input,
      { cwd: workspace, roots: [workspace], homeDir: home },
      { tool: 'write_file', mustNameFile: true, isWrite: true },
    );
  } catch (error) {
    if (isAppError(error) && error.code === 'forbidden_path') return error.message;
    throw error;
  }
  return '';
}

describe('write_file and patch refuse what git or an agent would run outside the sandbox', () => {
  it('refuses .git/commondir, .git/config, hooks, info, a submodule config and a .git file, saying git would run code', async () => {
    const { workspace, home } = await repo();
    expect(await refusal('.git/commondir', workspace, home)).toMatch(/another folder/u);
    expect(await refusal('.git/config', workspace, home)).toMatch(/git runs the programs its configuration names/u);
    expect(await refusal('.git/hooks/pre-commit', workspace, home)).toMatch(/git runs the hooks/u);
    for (const input of ['.git/info/attributes', '.git/modules/sub/config', '.git/worktrees/w/gitdir', 'sub/.git'])
      expect(await refusal(input, workspace, home), input).not.toBe('');
    for (const input of ['.git/HEAD', '.git/refs/heads/x', 'src/a.ts', '.gitignore'])
      expect(await refusal(input, workspace, home), input).toBe('');
  });

  it('refuses the core.hooksPath folder, an include.path file and a git directory under another name', async () => {
    const { workspace, home } = await repo();
    execFileSync('git', ['-C', workspace, 'config', 'core.hooksPath', '.husky-hooks']);
    execFileSync('git', ['-C', workspace, 'config', 'include.path', '../conf/extra.inc']);
    execFileSync('git', ['init', '-q', '--bare', path.join(workspace, 'vendor', 'mirror')]);
    expect(await refusal('.husky-hooks/pre-commit', workspace, home)).toMatch(/core\.hooksPath/u);
    expect(await refusal('conf/extra.inc', workspace, home)).toMatch(/include\.path/u);
    expect(await refusal('vendor/mirror/config', workspace, home)).not.toBe('');
    expect(await refusal('vendor/mirror/objects/ab/cd', workspace, home)).toBe('');
  });

  it('refuses agents’ and editors’ settings at any depth', async () => {
    const { workspace, home } = await repo();
    for (const input of [
      '.claude/settings.json',
      'pkg/.vscode/tasks.json',
      '.mcp.json',
      '.envrc',
      '.gemini/settings.json',
      '.cursor/hooks.json',
    ])
      expect(await refusal(input, workspace, home), input).toMatch(/which agents may not write/u);
  });

  it('replaces a hard link instead of writing through it: the file outside keeps its content (H4)', async () => {
    const { base, workspace } = await repo();
    const outside = path.join(base, 'store.js');
    writeFileSync(outside, 'original\n');
    linkSync(outside, path.join(workspace, 'linked.js'));
    await writeAnchoredFile(await anchorFile(path.join(workspace, 'linked.js')), 'changed\n');
    expect(readFileSync(outside, 'utf8')).toBe('original\n');
    expect(readFileSync(path.join(workspace, 'linked.js'), 'utf8')).toBe('changed\n');
  });
});

describe('workspace roots are project folders (C2)', () => {
  it('refuses /, the home folder, system folders and folders holding Vigil’s data or credentials', async () => {
    const { base, home, workspace } = await repo();
    const rules = { home, protectedPaths: [path.join(base, 'vigil')] };
    for (const root of ['/', home, base, '/etc', '/usr/lib', '/var', path.dirname(home)]) {
      expect(() => refuseUnsafeRoots([root], rules), root).toThrow(/Start in a project folder/u);
    }
    mkdirSync(path.join(workspace, '.ssh'));
    expect(() => refuseUnsafeRoots([workspace], { home: workspace + '-other' })).not.toThrow();
    expect(() => refuseUnsafeRoots([workspace, '/'], rules)).toThrow(/\/ as a workspace root/u);
  });

  it('answers every file and terminal call of a session rooted at / or at home with that message', async () => {
    const { home, workspace } = await repo();
    for (const roots of [['/'], [home]]) {
      const error = await resolveFileTarget(
        path.join(workspace, 'a.txt'),
        { cwd: workspace, roots, homeDir: home },
        { tool: 'write_file', isWrite: true },
      ).catch((caught: unknown) => caught);
      expect(isAppError(error) && error.message).toMatch(/will not use .* as a workspace root/u);
    }
  });

  it('vigil tool refuses --root / and --root ~ before running anything', async () => {
    const { base, home } = await repo();
    const env = { HOME: home, VIGIL_HOME: path.join(base, 'vigil') };
    for (const root of ['/', home]) {
      const run = await runVigil(
        ['tool', 'terminal', '--args', '{"command":"echo pwned >> ~/.bashrc"}', '--cwd', home, '--root', root],
        { env },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/will not use .* as a workspace root/u);
    }
    expect(() => readFileSync(path.join(home, '.bashrc'))).toThrow();
  });
});
