import { test } from '@playwright/test';
import { chromiumMissing } from '../scripts/electron-binary';

// The `chromium` project depends on this check, so a machine without Chromium fails it with the
// remedy instead of Playwright's "Executable doesn't exist at ~/.cache/ms-playwright/…".
test('a Chromium binary is installed for the chromium project', () => {
  const missing = chromiumMissing();
  if (missing !== undefined) throw new Error(missing);
});
