import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { connectAgent } from './fixtures/agents';
import { expect, test } from './fixtures/vigil-fixture';

const esc = '\u001b';

/** Whether a text holds a control character a page would hide or act on (C0 but newline and tab, DEL, C1, bidi controls). */
function hasRawControl(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (
      (code <= 0x1f && code !== 0x09 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    )
      return true;
  }
  return false;
}

test('names and commands holding control characters are shown escaped, never raw', async ({ page, vigil }) => {
  await writeFile(
    path.join(vigil.home, 'config.json'),
    JSON.stringify({
      policy: { rules: [{ effect: 'ask', tool: 'terminal', command: 'echo', reason: 'the test asks for every echo' }] },
    }),
  );
  await writeFile(path.join(vigil.workspace, 'plain.txt'), 'plain\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  const client = await connectAgent(vigil.home);
  try {
    const session = await client.openSession({ agent: `sneaky${esc}[8m`, roots: [vigil.workspace] });
    await session.beginTurn('Write a file with a strange name');
    const written = await session.callTool('write_file', { path: `two\nlines${esc}[31m.txt`, content: 'x' });
    expect(written.result.ok).toBe(true);

    const card = page.locator(`[data-testid="session-card"][data-session-id="${session.id}"]`);
    // The newline in the name is escaped, not folded into a space (`two lines.txt` would be another file); the escape stays visible.
    await expect(card.getByTestId('session-last-call')).toContainText('two\\nlines\\u001b[31m.txt');
    await expect(card.getByTestId('session-file')).toContainText('two\\nlines\\u001b[31m.txt');
    await expect(card).toContainText('sneaky\\u001b[8m');
    expect(hasRawControl(await card.innerText())).toBe(false);

    // A right-to-left override would show "rm -rf ~" reversed, as something harmless; a CR could hide the start.
    const asked = session.callTool('terminal', { command: 'echo safe\rrm -rf ~ \u202e# txt.ecnis' });
    await page.keyboard.press('Alt+4');
    const approval = page.getByTestId('approval-card');
    await expect(approval).toBeVisible();
    await expect(approval.getByTestId('approval-command')).toHaveText('echo safe\\rrm -rf ~ \\u202e# txt.ecnis');
    expect(hasRawControl(await approval.innerText())).toBe(false);
    await approval.getByTestId('deny').click();
    expect((await asked).decision).toBe('denied');

    // The timeline's detail and the restore plan name the file escaped too, on one line.
    await page.keyboard.press('Alt+2');
    await page
      .locator(`[data-testid="timeline-entry"][data-checkpoint-id="${written.checkpoints[0]?.checkpointId ?? 'none'}"]`)
      .click();
    await expect(page.getByTestId('checkpoint-detail')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('changed-file')).toHaveCount(1);
    await expect(page.getByTestId('changed-file')).toContainText('two\\nlines\\u001b[31m.txt');
    await page.getByTestId('restore-all').click();
    const plan = page.getByTestId('restore-plan');
    await expect(plan).toContainText('two\\nlines\\u001b[31m.txt');
    expect(hasRawControl(await page.getByTestId('checkpoint-detail').innerText())).toBe(false);
    expect(hasRawControl(await plan.innerText())).toBe(false);
    await page.keyboard.press('Escape');
  } finally {
    await client.close();
  }
});
