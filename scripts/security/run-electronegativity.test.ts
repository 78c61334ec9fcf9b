import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { writeTree } from '../test-support/pack-asar';
import { gateFindings, reviewedFindings } from './reviewed-findings';
import { runElectronegativity } from './run-electronegativity';

describe('runElectronegativity on a deliberately unsafe app', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it(
    'finds the unsafe window, names the file it could not parse, and the gate fails',
    { timeout: 180_000 },
    async () => {
      const temp = await makeTempDir('vigil-eneg-');
      cleanup = temp.remove;
      const input = path.join(temp.dir, 'app');
      writeTree(input, {
        'package.json': JSON.stringify({ name: 'unsafe', main: 'main.js' }),
        'main.js': [
          "const { BrowserWindow } = require('electron');",
          'const window = new BrowserWindow({ webPreferences: { contextIsolation: false, nodeIntegration: true, sandbox: false } });',
          "window.loadURL('http://example.invalid/');",
        ].join('\n'),
        // Plain JS with a private field: electronegativity's JS parser skips such files.
        'chunk.js': 'export class Hidden { #secret = 1; get value() { return this.#secret; } }\n',
      });
      const scan = await runElectronegativity({ input, electronVersion: '45.4.1' });
      expect(scan.checksRun).toBeGreaterThan(30);
      const checks = scan.findings.map((finding) => `${finding.severity} ${finding.check}`);
      expect(checks).toContain('HIGH CONTEXT_ISOLATION_JS_CHECK');
      expect(checks).toContain('HIGH LIMIT_NAVIGATION_GLOBAL_CHECK');
      expect(checks).toContain('MEDIUM HTTP_RESOURCES_JS_CHECK');
      expect(checks).toContain('MEDIUM CSP_GLOBAL_CHECK');
      expect(scan.unparsed.map((file) => path.basename(file))).toEqual(['chunk.js']);
      const gate = gateFindings(scan.findings, reviewedFindings);
      expect(gate.failures.map((finding) => finding.check)).toEqual(
        expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']),
      );
    },
  );
});
