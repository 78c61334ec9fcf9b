import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './scripts/electron-binary';

/**
 * End-to-end tests. `chromium`: Debian's Chromium against `vigil serve` (the same core and
 * contract as the desktop app); it depends on `chromium-present`, which fails with the remedy when
 * no Chromium is installed. `electron`: the same specs in the real Electron app, where an
 * Electron binary exists (it is downloaded lazily and cannot be fetched offline: then the project
 * reports its tests as skipped, with the reason).
 */
// The CLI a spec runs works in-process or relays to the spec's own server; it never starts a
// background core that outlives the run, unless a spec opts in (VIGIL_NO_CORE=0 in its child's env).
process.env['VIGIL_NO_CORE'] ??= '1';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Fails with the remedy ("apt-get install -y chromium, or set CHROMIUM_PATH") where no Chromium exists.
    { name: 'chromium-present', testMatch: 'chromium-present.setup.ts' },
    {
      name: 'chromium',
      dependencies: ['chromium-present'],
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: chromiumExecutable(),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
    { name: 'electron', use: { viewport: { width: 1280, height: 800 } } },
  ],
});
