import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { packAsar, repoRoot } from '../test-support/pack-asar';
import { openAsar } from './asar-archive';
import { rendererMetaContentSecurityPolicy } from '../../electron/shell/content-security-policy';
import { findPackagingProblems, metaContentSecurityPolicy, unpackedProblems } from './find-packaging-problems';
import { lockfilePackages } from './lockfile-packages';

/** The real lockfile: zod is a production package, react a development-only one. */
const lockText = readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8');
const lock = lockfilePackages(JSON.parse(lockText));
const lockVersion = (name: string): string =>
  (JSON.parse(lockText) as { packages: Record<string, { version: string }> }).packages[`node_modules/${name}`]
    ?.version ?? '';

const manifest = { dependencies: { zod: '^4' } };

/** A correct app: entry points, the renderer, and zod at the locked version. */
function goodApp(): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'vigil', main: 'out/main/main.js', dependencies: { zod: '^4' } }),
    'out/main/main.js':
      'import { z } from "zod";\nimport path from "node:path";\nimport { app } from "electron";\nimport "./chunks/a.js";\n',
    'out/main/chunks/a.js': 'import fs from "fs";\nexport const a = await import("zod/v4");\n',
    'out/main/cli.cjs': 'const path = require("node:path");\n',
    'out/main/cli.js': 'import "./chunks/a.js";\n',
    'out/preload/preload.cjs': 'const { contextBridge } = require("electron");\n',
    'out/renderer/index.html': `<!doctype html><head><meta http-equiv="Content-Security-Policy" content="${rendererMetaContentSecurityPolicy.replace(/'/g, '&#39;')}"><meta charset="utf-8">`,
    'out/renderer/assets/index-abc.js': 'import "react"; // bundled code may mention anything\n',
    'node_modules/zod/package.json': JSON.stringify({ name: 'zod', version: lockVersion('zod') }),
    'node_modules/zod/index.js': '',
    'node_modules/zod/v4/package.json': JSON.stringify({ main: '../index.js' }),
  };
}

describe('findPackagingProblems', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  async function problemsOf(files: Record<string, string>): Promise<readonly string[]> {
    const temp = await makeTempDir('vigil-pack-');
    cleanup = temp.remove;
    return findPackagingProblems(openAsar(packAsar(temp.dir, files)), manifest, lock);
  }

  it('accepts an app made of out/, package.json and its production dependencies', async () => {
    expect(await problemsOf(goodApp())).toEqual([]);
  });

  it('reports missing entry points and an unbuilt renderer', async () => {
    const files = goodApp();
    delete files['out/preload/preload.cjs'];
    delete files['out/main/cli.cjs'];
    delete files['out/renderer/assets/index-abc.js'];
    expect(await problemsOf(files)).toEqual([
      'missing from app.asar: /out/main/cli.cjs, /out/preload/preload.cjs',
      'the renderer has no script in /out/renderer/assets (was `npm run build` run?)',
    ]);
  });

  it('reports repository files, sources, maps and tests that leaked in', async () => {
    const problems = await problemsOf({
      ...goodApp(),
      'electron/main.ts': '',
      'out/main/main.js.map': '{}',
      'out/main/window.test.js': '',
      'node_modules/zod/index.d.ts': '',
    });
    expect(problems).toEqual([
      'files from outside out/ are packaged: /electron/main.ts',
      'TypeScript sources or declarations are packaged: /electron/main.ts, /node_modules/zod/index.d.ts',
      'source maps are packaged: /out/main/main.js.map',
      'tests are packaged: /out/main/window.test.js',
    ]);
  });

  it('reports development packages, missing dependencies and unsatisfied run-time imports', async () => {
    const files = goodApp();
    delete files['node_modules/zod/package.json'];
    delete files['node_modules/zod/v4/package.json'];
    files['node_modules/react/package.json'] = JSON.stringify({ name: 'react', version: lockVersion('react') });
    files['out/preload/preload.cjs'] = 'require("electron"); require("zod");\n';
    expect(await problemsOf(files)).toEqual([
      `packages that a production install does not contain are packaged: react@${lockVersion('react')} (devDependencies must stay out of the app; see package-lock.json)`,
      'dependencies missing from app.asar: zod',
      '/out/main/chunks/a.js imports zod, which app.asar does not contain (a run-time import must be a "dependency")',
      '/out/main/main.js imports zod, which app.asar does not contain (a run-time import must be a "dependency")',
      'the sandboxed preload /out/preload/preload.cjs loads packages it cannot load: zod (bundle them)',
    ]);
  });

  it('reports a renderer page without the CSP meta tag', async () => {
    expect(
      await problemsOf({ ...goodApp(), 'out/renderer/index.html': '<!doctype html><meta charset="utf-8">' }),
    ).toEqual(["the packaged renderer page's CSP meta tag is missing, not the one electron.vite.config.ts writes"]);
    expect(
      metaContentSecurityPolicy('<meta content="default-src &#39;self&#39;" http-equiv="content-security-policy">'),
    ).toBe("default-src 'self'");
  });

  it('reports a packaged package.json that still has scripts or the wrong entry point', async () => {
    const problems = await problemsOf({
      ...goodApp(),
      'package.json': JSON.stringify({
        main: 'electron/main.ts',
        scripts: { test: 'x' },
        devDependencies: { react: '19' },
      }),
    });
    expect(problems).toEqual([
      'the packaged package.json\'s "main" is "electron/main.ts", not "out/main/main.js"',
      'the packaged package.json still lists devDependencies',
      'the packaged package.json still lists scripts',
    ]);
  });
});

describe('lockfilePackages', () => {
  it('splits the real lockfile into production and development-only packages', () => {
    expect(lock.production.has(`zod@${lockVersion('zod')}`)).toBe(true);
    expect(lock.production.has(`react@${lockVersion('react')}`)).toBe(false);
    expect(lock.developmentOnly.has('react')).toBe(true);
    expect(lock.developmentOnly.has('electron')).toBe(true);
    expect(lock.developmentOnly.has('zod')).toBe(false);
  });
});

describe('unpackedProblems', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  async function packed(unpackDir?: string): Promise<ReturnType<typeof openAsar>> {
    const temp = await makeTempDir('vigil-unpack-');
    cleanup = temp.remove;
    const files = {
      ...goodApp(),
      'node_modules/helper/package.json': JSON.stringify({ name: 'helper', version: '1.0.0' }),
      'node_modules/helper/bin/run': '#!/bin/sh\n',
    };
    return openAsar(packAsar(temp.dir, files, unpackDir));
  }

  it('accepts a declared package unpacked whole, and reads its files from app.asar.unpacked', async () => {
    const archive = await packed('node_modules/helper');
    expect(unpackedProblems(['app.asar', 'app.asar.unpacked'], archive, ['helper'])).toEqual([]);
    expect(archive.read('/node_modules/helper/bin/run').toString()).toBe('#!/bin/sh\n');
  });

  it('reports a declared package left inside the archive, an undeclared unpacked one, and stray resources', async () => {
    expect(unpackedProblems(['app.asar', 'app.asar.unpacked'], await packed(), ['helper'])).toEqual([
      'helper is only partly unpacked; still inside app.asar: /node_modules/helper/bin/run, /node_modules/helper/package.json',
    ]);
    expect(
      unpackedProblems(['app.asar', 'app.asar.unpacked', 'extra'], await packed('node_modules/helper'), []),
    ).toEqual([
      'resources/ should hold app.asar, but holds: app.asar, app.asar.unpacked, extra',
      'files are unpacked that no package in unpackedPackages (electron-builder.config.ts) accounts for: /node_modules/helper/bin/run, /node_modules/helper/package.json',
    ]);
  });
});
