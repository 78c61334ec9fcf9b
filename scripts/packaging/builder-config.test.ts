import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { vigilFuses } from '../../electron-builder.config';
import { repoRoot } from '../test-support/pack-asar';
import { importedPackages } from './bare-imports';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Every non-test TypeScript file under a folder. */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('test-support'))
    .map((file) => path.join(repoRoot, folder, file));
}

function importsOf(files: readonly string[]): Set<string> {
  return new Set(files.flatMap((file) => importedPackages(readFileSync(file, 'utf8'))));
}

function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? (target as unknown[]) : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

describe('electron-builder.config.ts', () => {
  it('sets every fuse the security checklist asks for, and hands them to electron-builder', () => {
    expect(vigilFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.electronFuses).toBe(vigilFuses);
  });

  it('packages out/ and package.json only, as an asar, without rebuilding (there are no native modules)', () => {
    const included = (config.files as string[]).filter((pattern) => !pattern.startsWith('!'));
    expect(included.every((pattern) => pattern === 'package.json' || pattern.startsWith('out/'))).toBe(true);
    expect(included).not.toContain('out/**/*');
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(config.publish).toBeNull();
    const nativeModules = readdirSync(path.join(repoRoot, 'node_modules'), {
      recursive: true,
      encoding: 'utf8',
    }).filter(
      (file) =>
        file.endsWith('.node') &&
        Object.keys(manifest.dependencies).some((name) => file.startsWith(`${name}${path.sep}`)),
    );
    expect(nativeModules).toEqual([]);
  });

  it('targets AppImage and deb, a hardened dmg, and nsis, with icons that exist', () => {
    expect(config.appId).toBe('dev.vigil.app');
    expect(config.productName).toBe('Vigil');
    expect(targetNames(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.nsis?.deleteAppDataOnUninstall).toBe(false);
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(icon !== undefined && icon !== null && existsSync(path.join(repoRoot, icon)), String(icon)).toBe(true);
    }
  });

  it('grants the hardened runtime only the JIT entitlement V8 needs', () => {
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      expect(file).toBe('build/entitlements.mac.plist');
      const plist = readFileSync(path.join(repoRoot, file ?? ''), 'utf8');
      const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)].map(
        (match) => `${match[1] ?? ''}=${match[2] ?? ''}`,
      );
      expect(keys).toEqual(['com.apple.security.cs.allow-jit=true']);
    }
  });
});

describe('package.json for packaging', () => {
  it('pins Electron exactly, as a devDependency, at the installed version', () => {
    const installed = (
      JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
    ).version;
    expect(manifest.devDependencies['electron']).toBe(installed);
    expect(manifest.dependencies['electron']).toBeUndefined();
    expect(manifest.dependencies['electron-builder']).toBeUndefined();
  });

  it('keeps renderer-only packages out of "dependencies", so they stay out of app.asar', () => {
    const mainProcess = importsOf([...sourceFiles('electron'), ...sourceFiles('shared')]);
    const rendererOnly = [...importsOf(sourceFiles('renderer'))].filter((name) => !mainProcess.has(name));
    expect(rendererOnly.filter((name) => name in manifest.dependencies)).toEqual([]);
  });

  it('lists in "dependencies" only packages the app itself imports: a package only tests or benches use is a devDependency', () => {
    const app = importsOf([...sourceFiles('electron'), ...sourceFiles('shared'), ...sourceFiles('renderer')]);
    expect(Object.keys(manifest.dependencies).filter((name) => !app.has(name))).toEqual([]);
  });
});
