import { test } from '@playwright/test';
import { findChromium } from '../scripts/electron-binary';

// The `chromium` project depends on this check, so a machine without Chromium fails it with the
// remedy instead of Playwright's "Executable doesn't exist at ~/.cache/ms-playwright/…".
test('a Chromium binary is installed for the chromium project', () => {
  const chromium = findChromium();
  if ('missing' in chromium) throw new Error(chromium.missing);
});
