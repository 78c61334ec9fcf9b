import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

test('approve one dangerous command and deny another', async ({ page, vigil }, testInfo) => {
  // Every `touch` waits for a human: a rule in config.json, read by the policy on each call.
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({
      policy: {
        rules: [{ effect: 'ask', tool: 'terminal', command: 'touch', reason: 'the test asks for every touch' }],
      },
    }),
  );
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('approvals-empty')).toBeVisible();
  // It speaks of both doors: Vigil's tools wait here, hook-supervised agents ask in their own prompt.
  await expect(page.getByTestId('approvals-empty')).toContainText('ask in their own permission prompt instead');

  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'careful-agent', roots: [vigil.workspace] });
    await session.beginTurn('Make two marker files');
    const approvedCall = session.callTool('terminal', { command: 'touch approved.txt' });
    const deniedCall = session.callTool('terminal', { command: 'touch denied.txt' });

    const approveCard = page.getByTestId('approval-card').filter({ hasText: 'touch approved.txt' });
    const denyCard = page.getByTestId('approval-card').filter({ hasText: 'touch denied.txt' });
    await expect(approveCard).toBeVisible();
    await expect(denyCard).toBeVisible();
    await expect(page.getByTestId('nav-approvals-badge')).toHaveText('2');
    await expect(approveCard).toContainText('the test asks for every touch');
    await expect(approveCard).toContainText(vigil.workspace);
    await expect(approveCard).toContainText('careful-agent');
    await expect(approveCard.locator('.countdown')).toHaveAttribute('data-state', 'running');
    await saveScreens(page, testInfo, 'approvals');

    await approveCard.getByTestId('approve').click();
    // The other one is denied from the keyboard: focus the card, press D.
    await denyCard.focus();
    await page.keyboard.press('d');

    const [approved, denied] = await Promise.all([approvedCall, deniedCall]);
    expect(approved.decision).toBe('asked-allowed');
    expect(approved.result.ok).toBe(true);
    expect(denied.decision).toBe('denied');
    expect(denied.checkpoints).toEqual([]);
    expect(await exists(path.join(vigil.workspace, 'approved.txt'))).toBe(true);
    expect(await exists(path.join(vigil.workspace, 'denied.txt'))).toBe(false);

    await expect(page.getByTestId('approvals-empty')).toBeVisible();
    await expect(page.getByTestId('nav-approvals-badge')).toHaveCount(0);
    await expect(page.getByTestId('decision').filter({ hasText: 'touch approved.txt' })).toHaveAttribute(
      'data-decision',
      'allowed',
    );
    await expect(page.getByTestId('decision').filter({ hasText: 'touch denied.txt' })).toHaveAttribute(
      'data-decision',
      'denied',
    );
    await saveScreens(page, testInfo, 'approvals-decided');
  } finally {
    await client.close();
  }
});
