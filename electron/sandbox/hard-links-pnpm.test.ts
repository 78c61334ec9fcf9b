import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maxLinkMounts } from './linked-files';
import { createSandboxWorld, gitIn, type SandboxWorld } from './test-support/sandbox-fixture';

/**
 * Issue 30, H4, at pnpm's scale: every file under a pnpm project's node_modules is a hard link into
 * pnpm's content-addressed store. A link whose other names the sandbox may write anyway (a store in
 * the agents' cache or in `policy.sandbox.writablePaths`) stays writable; one to a file the sandbox
 * may not write stays read-only, alone while such files are few, by its folder when they are many.
 * The profile's size is asserted, not a time: each path kept read-only is a bubblewrap mount, and
 * thousands of them made every command take minutes or be refused.
 */
const worlds: SandboxWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

const packages = 200;
const filesPerPackage = 10;

/** A pnpm-like node_modules in `workspace`: `packages` packages of `filesPerPackage` files, each hard-linked to a file of `store`. */
function pnpmTree(workspace: string, store: string): void {
  const modules = path.join(workspace, 'node_modules');
  mkdirSync(path.join(modules, '.pnpm'), { recursive: true });
  writeFileSync(path.join(modules, '.pnpm', 'lock.yaml'), 'lockfileVersion: 9.0\n');
  writeFileSync(path.join(modules, '.modules.yaml'), `storeDir: ${store}\n`);
  for (let index = 0; index < packages; index += 1) {
    const name = `pkg${index}`;
    const folder = path.join(modules, '.pnpm', `${name}@1.0.0`, 'node_modules', name);
    mkdirSync(path.join(folder, 'lib'), { recursive: true });
    const content = path.join(store, 'files', String(index % 256).padStart(2, '0'));
    mkdirSync(content, { recursive: true });
    for (let file = 0; file < filesPerPackage; file += 1) {
      const stored = path.join(content, `${name}-${file}`);
      writeFileSync(stored, `module.exports = ${index * 100 + file};\n`);
      linkSync(stored, path.join(folder, file === 0 ? 'index.js' : path.join('lib', `f${file}.js`)));
    }
    symlinkSync(path.join('.pnpm', `${name}@1.0.0`, 'node_modules', name), path.join(modules, name));
  }
}

function packageFile(workspace: string, index: number, file = 'index.js'): string {
  return path.join(workspace, 'node_modules', '.pnpm', `pkg${index}@1.0.0`, 'node_modules', `pkg${index}`, file);
}

async function world(): Promise<SandboxWorld> {
  const w = await createSandboxWorld({ 'src/app.js': 'require("pkg1");\n' });
  worlds.push(w);
  return w;
}

function profileOf(w: SandboxWorld): ReturnType<SandboxWorld['sandbox']['profile']> {
  return w.sandbox.profile({ roots: [w.workspace], sessionId: 'ses_test' }, w.settings);
}

describe('a pnpm tree linked to a store the sandbox may write', () => {
  it('keeps only the one link to a protected file read-only, runs commands, and lets an install add files and links', async () => {
    const w = await world();
    // The store where the sandbox points pnpm: inside the agents' package cache, writable to every command.
    const store = path.join(w.base, 'tmp', 'agent-cache', 'pnpm-store', 'v3');
    pnpmTree(w.workspace, store);
    // One more link, to a file in a store the sandbox may not write: the user's own, in the throwaway home.
    const userStore = path.join(w.home, '.local', 'share', 'pnpm', 'store', 'v3', 'files', 'ab');
    mkdirSync(userStore, { recursive: true });
    const outside = path.join(userStore, 'cdef-index.js');
    writeFileSync(outside, 'module.exports = "left-pad";\n');
    const linked = path.join(w.workspace, 'node_modules', '.pnpm', 'left-pad@1.0.0', 'node_modules', 'left-pad');
    mkdirSync(linked, { recursive: true });
    linkSync(outside, path.join(linked, 'index.js'));

    const profile = await profileOf(w);
    expect(profile.linkedOutside).toEqual([path.join(linked, 'index.js')]);
    const nodeModules = profile.denyWrite.filter((entry) => entry.includes(`${path.sep}node_modules${path.sep}`));
    expect(nodeModules).toEqual([path.join(linked, 'index.js')]);
    // A handful of git and settings paths, not one per package file.
    expect(profile.denyWrite.length).toBeLessThan(40);

    const attack = await w.run(`echo 'require("child_process")' >> ${path.join(linked, 'index.js')}; echo done`);
    expect(attack.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(outside, 'utf8')).toBe('module.exports = "left-pad";\n');

    const install = await w.run(
      [
        'mkdir -p node_modules/.pnpm/new@1.0.0/node_modules/new',
        `cp ${path.join(store, 'files', '01', 'pkg1-0')} node_modules/.pnpm/new@1.0.0/node_modules/new/index.js`,
        `ln ${packageFile(w.workspace, 2)} node_modules/.pnpm/new@1.0.0/node_modules/new/alias.js`,
        'ln -s .pnpm/new@1.0.0/node_modules/new node_modules/new',
        `echo 'module.exports = "rebuilt";' > ${packageFile(w.workspace, 3)}`,
        'rm -rf node_modules/.pnpm/pkg4@1.0.0 node_modules/pkg4',
        'node -e \'console.log(require("./node_modules/new"), require("./node_modules/new/alias.js"))\'',
      ].join(' && '),
    );
    expect(install.stderr).toBe('');
    expect(install).toMatchObject({ exit_code: 0, stdout: '100 200\n' });
    expect(readFileSync(path.join(store, 'files', '03', 'pkg3-0'), 'utf8')).toBe('module.exports = "rebuilt";\n');
    expect(existsSync(path.join(w.workspace, 'node_modules', '.pnpm', 'pkg4@1.0.0'))).toBe(false);
  });

  it('treats a store listed in policy.sandbox.writablePaths as writable too', async () => {
    const w = await world();
    const store = path.join(w.home, 'pnpm-store', 'v3');
    pnpmTree(w.workspace, store);
    w.settings = {
      ...w.settings,
      sandbox: { ...w.settings.sandbox, writablePaths: [path.join(w.home, 'pnpm-store')] },
    };
    const profile = await profileOf(w);
    expect(profile.linkedOutside).toEqual([]);
    expect(await w.run('echo ok')).toMatchObject({ exit_code: 0, stdout: 'ok\n' });
  });
});

describe('a pnpm tree linked to a store the sandbox may not write (the user installed it)', () => {
  it('keeps the linked files read-only by their folder: the store stays as it was, the rest of the workspace stays writable', async () => {
    const w = await world();
    const store = path.join(w.home, '.local', 'share', 'pnpm', 'store', 'v3');
    pnpmTree(w.workspace, store);
    const profile = await profileOf(w);
    expect(profile.linkedOutside).toHaveLength(packages * filesPerPackage);
    const pnpmFolder = path.join(w.workspace, 'node_modules', '.pnpm');
    expect(profile.denyWrite).toContain(pnpmFolder);
    expect(profile.denyWrite.filter((entry) => entry.startsWith(`${pnpmFolder}${path.sep}`))).toEqual([]);
    expect(profile.denyWrite.length).toBeLessThan(40);

    const result = await w.run(
      [
        `echo 'require("child_process")' >> ${packageFile(w.workspace, 7)}`,
        `chmod 777 ${packageFile(w.workspace, 8, 'lib/f1.js')}`,
        'echo "export {}" > src/new.js',
        'node -e \'console.log(require("./node_modules/pkg9"))\'',
      ].join('; '),
    );
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(result.stdout).toBe('900\n');
    expect(readFileSync(path.join(store, 'files', '07', 'pkg7-0'), 'utf8')).toBe('module.exports = 700;\n');
    expect(readFileSync(path.join(w.workspace, 'src', 'new.js'), 'utf8')).toBe('export {}\n');
    expect(result.sandbox_notes?.join('\n')).toContain(
      `Vigil kept ${pnpmFolder} read-only as a whole: it holds ${packages * filesPerPackage} files hard-linked`,
    );
  });

  it('refuses a command, naming the cause and the fix, when the linked files are spread over too many top-level folders', async () => {
    const w = await world();
    const store = path.join(w.home, 'store');
    mkdirSync(store);
    for (let index = 0; index <= maxLinkMounts; index += 1) {
      writeFileSync(path.join(store, `f${index}`), 'x\n');
      mkdirSync(path.join(w.workspace, `top${index}`));
      linkSync(path.join(store, `f${index}`), path.join(w.workspace, `top${index}`, 'f.js'));
    }
    const refusal: unknown = await w.run('echo ok').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: 'conflict' });
    expect(refusal instanceof Error ? refusal.message : '').toMatch(
      new RegExp(
        `${maxLinkMounts + 1} files in .* are hard links to files the sandbox may not write.*The command was not run.*package-import-method=copy.*writablePaths`,
        'u',
      ),
    );
  });
});

describe('a hard link to a protected path inside the workspace', () => {
  it('keeps a workspace file hard-linked to .git/config read-only, so git never reads what it wrote', async () => {
    const w = await world();
    gitIn(w.workspace, ['init', '-q']);
    const config = path.join(w.workspace, '.git', 'config');
    const before = readFileSync(config, 'utf8');
    linkSync(config, path.join(w.workspace, 'settings.ini'));
    const result = await w.run('printf "[core]\\n\\tfsmonitor = \\"echo PWNED > ../victim/x\\"\\n" >> settings.ini');
    expect(result.stderr).toMatch(/Read-only file system/u);
    expect(readFileSync(config, 'utf8')).toBe(before);
  });
});
