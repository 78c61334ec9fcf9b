import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { resolveWorkspacePath } from './resolve-workspace-path';
import type { WorkspaceContext } from './workspace-context';

let base: string;
let remove: () => Promise<void>;
let context: WorkspaceContext;
let project: string;
let home: string;
let outside: string;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-confine-'));
  home = path.join(base, 'home');
  project = path.join(home, 'project');
  outside = path.join(base, 'outside');
  for (const dir of [
    project,
    path.join(project, 'src'),
    outside,
    path.join(home, '.ssh'),
    path.join(home, '.config', 'gcloud'),
  ])
    mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'key');
  context = { cwd: path.join(project, 'src'), roots: [project], homeDir: home };
});
afterEach(async () => {
  await remove();
});

/** The error code a path is refused with, or "ok". */
async function verdict(input: string, overrides: Partial<WorkspaceContext> = {}): Promise<string> {
  try {
    await resolveWorkspacePath(input, { ...context, ...overrides });
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('resolveWorkspacePath', () => {
  it('resolves relative paths against the cwd, absolute paths, `..` inside the root and ~', async () => {
    expect(await resolveWorkspacePath('main.ts', context)).toEqual({
      absolute: path.join(project, 'src', 'main.ts'),
      root: project,
    });
    expect((await resolveWorkspacePath('../README.md', context)).absolute).toBe(path.join(project, 'README.md'));
    expect((await resolveWorkspacePath(path.join(project, 'new', 'deep', 'x.ts'), context)).absolute).toBe(
      path.join(project, 'new', 'deep', 'x.ts'),
    );
    expect((await resolveWorkspacePath('~/project/a.txt', context)).absolute).toBe(path.join(project, 'a.txt'));
  });

  it('refuses every way out of the workspace and names the roots', async () => {
    symlinkSync(outside, path.join(project, 'linked-dir'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(project, 'linked-file'));
    symlinkSync(path.join(outside, 'not-yet.txt'), path.join(project, 'dangling'));
    symlinkSync('..', path.join(project, 'src', 'up'));
    mkdirSync(path.join(project, 'chain'));
    symlinkSync(path.join('..', 'linked-dir'), path.join(project, 'chain', 'hop'));
    const refused = [
      '../../outside/secret.txt',
      '../../../outside',
      path.join(outside, 'secret.txt'),
      '../linked-dir/secret.txt',
      '../linked-dir/new-file.txt',
      '../linked-file',
      '../dangling',
      'up/../../outside/secret.txt',
      '../chain/hop/secret.txt',
      '~/elsewhere.txt',
      '~',
      '/',
    ];
    for (const input of refused) expect([input, await verdict(input)]).toEqual([input, 'outside_workspace']);
    const error: unknown = await resolveWorkspacePath('../linked-dir/secret.txt', context).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'outside_workspace', details: { roots: [project] } });
    expect((error as Error).message).toContain(project);
    expect((error as Error).message).toContain('symbolic link');
  });

  it('physically resolves `..` after a symlink, as the kernel does', async () => {
    mkdirSync(path.join(outside, 'inner'));
    symlinkSync(path.join(outside, 'inner'), path.join(project, 'in'));
    // Lexically "in/../x" is project/x; physically it is outside/x.
    expect(await verdict('../in/../secret.txt')).toBe('outside_workspace');
  });

  it('refuses credential and system locations even inside a root', async () => {
    const wide = { roots: [base, '/'] };
    expect(await verdict('~/.ssh/id_ed25519', wide)).toBe('forbidden_path');
    expect(await verdict('~/.ssh', wide)).toBe('forbidden_path');
    expect(await verdict('~/.config/gcloud/credentials.db', wide)).toBe('forbidden_path');
    expect(await verdict('~/.aws/credentials', wide)).toBe('forbidden_path');
    expect(await verdict('~/.docker/config.json', wide)).toBe('forbidden_path');
    expect(await verdict('~/.netrc', wide)).toBe('forbidden_path');
    expect(await verdict('/etc/passwd', wide)).toBe('forbidden_path');
    // A session rooted at / is refused whole (issue 30, C2): even a harmless path in it.
    expect(await verdict('~/.docker/other.json', wide)).toBe('forbidden_path');
    expect(await verdict('~/.docker/other.json', { roots: [home] })).toBe('forbidden_path');
    symlinkSync(path.join(home, '.ssh'), path.join(project, 'keys'));
    expect(await verdict('../keys/id_ed25519', wide)).toBe('forbidden_path');
    expect(
      await verdict('../vigil-data/serve.json', { ...wide, protectedPaths: [path.join(project, 'vigil-data')] }),
    ).toBe('forbidden_path');
  });

  it('refuses NUL bytes, empty paths and ~user', async () => {
    expect(await verdict('a\0b')).toBe('invalid_request');
    expect(await verdict('')).toBe('invalid_request');
    expect(await verdict('~root/x')).toBe('invalid_request');
  });

  it('picks the innermost root when roots nest', async () => {
    const inner = path.join(project, 'src');
    expect((await resolveWorkspacePath('x.ts', { ...context, roots: [project, inner] })).root).toBe(inner);
  });
});
