import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runScriptInFreshProcess, sandboxModuleUrl } from '../test-support/run-vigil';

/**
 * The sandbox engine is loaded without node-forge (engine-import.ts): checked in fresh processes,
 * since the require cache is process-wide. The layout that relies on is pinned here: an engine
 * update that moves node-forge's imports fails the first test, with what to re-check.
 */
const engineDist = path.join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist');
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-engine-import-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const inFreshProcess = (source: string): Promise<Record<string, unknown>> => runScriptInFreshProcess(dir, source);

/** Script lines: how many of node-forge's files ran (Node's loader may list one it only parsed, unloaded; index.js is the stand-in). */
const forgeFilesLoaded = `
import Module from 'node:module';
const forgeFiles = (): number =>
  Object.entries((Module as unknown as { _cache: Record<string, { loaded: boolean }> })._cache).filter(
    ([file, module]) => module.loaded && file.includes('node-forge') && !file.endsWith('index.js'),
  ).length;
`;

describe('the sandbox engine without node-forge', () => {
  it('is the engine version and layout engine-import.ts was written for', async () => {
    const { version } = JSON.parse(await readFile(path.join(engineDist, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const importers: string[] = [];
    for (const folder of ['sandbox', 'utils', '.']) {
      for (const name of await readdir(path.join(engineDist, folder))) {
        if (!name.endsWith('.js')) continue;
        const text = await readFile(path.join(engineDist, folder, name), 'utf8');
        if (/from 'node-forge'|require\('node-forge'\)|import\('node-forge'\)/u.test(text)) {
          importers.push(
            `${folder}/${name}: ${/^import (\S+) from 'node-forge';$/mu.exec(text)?.[1] ?? 'another form'}`,
          );
        }
      }
    }
    // On a new engine version: check that node-forge is still only imported as a default import at the
    // top of these modules and only called for TLS interception, then update the version here.
    expect(version).toBe('0.0.83');
    expect(importers.sort()).toEqual(['sandbox/mitm-ca.js: forge', 'sandbox/mitm-leaf.js: forge']);
  });

  it('starts the engine, proxies and bridges included, and wraps a command with node-forge never loaded', async () => {
    const temp = path.join(dir, 'temp');
    const result = await inFreshProcess(`
${forgeFilesLoaded}
import { mkdir } from 'node:fs/promises';
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
await mkdir(${JSON.stringify(temp)}, { recursive: true });
runtime.acquireEngine();
const wrapped: string = await runtime.wrapInSandbox({
  command: 'true',
  directory: ${JSON.stringify(temp)},
  profile: { denyRead: [], allowWrite: [${JSON.stringify(temp)}], denyWrite: [], temp: ${JSON.stringify(temp)} },
  network: { deniedDomains: [] },
});
runtime.commandEnded();
await runtime.releaseEngine();
console.log(JSON.stringify({ wrapped: wrapped.length, forgeFiles: forgeFiles() }));
`);
    expect(result['wrapped']).toBeGreaterThan(0);
    expect(result['forgeFiles']).toBe(0);
  });

  it('loads node-forge at its first use, where TLS interception would use it, and works unchanged', async () => {
    const result = await inFreshProcess(`
${forgeFilesLoaded}
import { X509Certificate } from 'node:crypto';
const { importEngine } = await import(${JSON.stringify(sandboxModuleUrl('engine-import.ts'))});
const engine = await importEngine();
const before = forgeFiles();
const ca = engine.generateCa({ cn: 'vigil engine-import test CA', validityDays: 2 });
const certificate = new X509Certificate(ca.certPem);
console.log(JSON.stringify({
  before,
  after: forgeFiles(),
  subject: certificate.subject,
  isCa: certificate.ca,
  valid: engine.validateCaPair === undefined ? 'absent' : 'present',
}));
`);
    expect(result['before']).toBe(0);
    expect(result['after']).toBeGreaterThan(0);
    expect(result['subject']).toContain('CN=vigil engine-import test CA');
    expect(result['isCa']).toBe(true);
  });
});
