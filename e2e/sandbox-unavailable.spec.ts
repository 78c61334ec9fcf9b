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

test('where the OS sandbox cannot start, the approval card says why and what fixes it', async ({
  page,
  vigil,
}, testInfo) => {
  // The availability check is pointed at a bubblewrap that is not there, as on a machine without it.
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({ policy: { sandbox: { bwrapPath: path.join(vigil.home, 'no-bwrap-here') } } }),
  );
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('approvals-empty')).toBeVisible();

  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: 'plain-agent', roots: [vigil.workspace] });
    await session.beginTurn('Make a marker file');
    const call = session.callTool('terminal', { command: 'echo made > marker.txt' });

    const card = page.getByTestId('approval-card').filter({ hasText: 'echo made > marker.txt' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('agent commands cannot run in the OS sandbox');
    await expect(card).toContainText('no-bwrap-here');
    await expect(card).toContainText(/install bubblewrap \(sudo [a-z-]+ install/u);
    await saveScreens(page, testInfo, 'approval-no-sandbox');
    expect(await exists(path.join(vigil.workspace, 'marker.txt'))).toBe(false);

    await card.getByTestId('approve').click();
    const outcome = await call;
    expect(outcome.decision).toBe('asked-allowed');
    expect(outcome.result.ok).toBe(true);
    expect(await exists(path.join(vigil.workspace, 'marker.txt'))).toBe(true);
  } finally {
    await client.close();
  }
});
