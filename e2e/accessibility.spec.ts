import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { connectAgent } from './fixtures/agents';
import { expect, test } from './fixtures/vigil-fixture';

/** The serious and critical violations axe finds on the page as it is now, one line each (rule, impact, where). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact ?? ''}): ${node.target.join(' ')} — ${node.failureSummary ?? ''}`,
      ),
    );
}

for (const { width, height, colorScheme } of [
  { width: 1440, height: 900, colorScheme: 'light' },
  { width: 1024, height: 640, colorScheme: 'light' },
  { width: 1440, height: 900, colorScheme: 'dark' },
] as const)
  test(`every screen passes axe with no serious or critical violation at ${width}×${height}, ${colorScheme}`, async ({
    page,
    vigil,
  }) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme });
    await writeFile(
      path.join(vigil.home, 'config.json'),
      JSON.stringify({ policy: { rules: [{ effect: 'ask', tool: 'terminal', command: 'touch', reason: 'asks' }] } }),
    );
    await writeFile(path.join(vigil.workspace, 'notes.txt'), 'one\ntwo\nthree\n');
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
    const client = await connectAgent(vigil.home, 'axe');
    try {
      const session = await client.openSession({ agent: 'alpha', roots: [vigil.workspace] });
      await session.beginTurn('Change the notes');
      await session.callTool('write_file', {
        path: path.join(vigil.workspace, 'notes.txt'),
        content: 'one\n2\nthree\n',
      });
      // Held for a person until the test ends (the client's close then fails it).
      const waiting = session.callTool('terminal', { command: 'touch marker.txt' }).catch(() => undefined);
      await expect(page.getByTestId('nav-approvals-badge')).toHaveText('1');

      const found: string[] = [];
      const check = async (screen: string): Promise<void> => {
        for (const line of await seriousViolations(page)) found.push(`${screen}: ${line}`);
      };
      await expect(page.getByTestId('session-card')).toHaveCount(1);
      await check('sessions');
      await page.getByTestId('session-card').locator('.session-card-open').click();
      await expect(page.getByTestId('transcript-panel')).toBeVisible();
      await check('transcript');
      await page.getByTestId('nav-timeline').click();
      await expect(page.getByTestId('timeline-entry')).toHaveCount(1);
      // On its title: the row's own buttons (Restore…, Rewind…) sit beside it on hover.
      await page.getByTestId('timeline-entry').first().getByTestId('row-title').click();
      await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
      await check('timeline and checkpoint detail');
      await page.getByTestId('nav-memory').click();
      await check('memory');
      await page.getByTestId('nav-approvals').click();
      await check('approvals');
      expect(found, found.join('\n')).toEqual([]);
      void waiting;
    } finally {
      await client.close();
    }
  });
