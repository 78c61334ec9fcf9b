import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from '@playwright/test';
import { connectMcpAgent } from './fixtures/agents';
import { callMcpTool, type McpCallRecord } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

const first = 'export const version = 2; // the first session\n';
const second = 'export const version = 3; // the second session\n';

/** The second session's write, held on the approvals screen; `answer` clicks one of the card's three answers. */
async function heldWrite(
  page: Page,
  client: Client,
  answer: 'approve' | 'deny' | 'deny-reread',
  beforeAnswer?: () => Promise<void>,
): Promise<McpCallRecord> {
  const call = callMcpTool(client, 'write_file', { path: 'src/app.ts', content: second }, { id: 'second-turn' });
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-state', 'waiting');
  await expect(card).toContainText(
    /claude-code #2 would overwrite src\/app\.ts, changed by claude-code #1 \d+ (s|min) ago/,
  );
  // Both changes: the first session's (1 → 2) and this call's (2 → 3).
  const theirs = card.getByTestId('collision-theirs');
  await expect(theirs).toContainText('claude-code #1’s change to src/app.ts');
  await expect(theirs.locator('[data-kind="removed"]')).toHaveText(['-export const version = 1;']);
  await expect(theirs.locator('[data-kind="added"]')).toHaveText([`+${first.trimEnd()}`]);
  const proposed = card.getByTestId('collision-proposed');
  await expect(proposed).toContainText('What claude-code #2 would change');
  await expect(proposed.locator('[data-kind="removed"]')).toHaveText([`-${first.trimEnd()}`]);
  await expect(proposed.locator('[data-kind="added"]')).toHaveText([`+${second.trimEnd()}`]);
  await beforeAnswer?.();
  await card.getByTestId(answer).click();
  await expect(page.getByTestId('approvals-empty')).toBeVisible();
  return call;
}

test('two sessions collide: the card shows both changes, and "deny", "deny and re-read" and "let it" each do what they say', async ({
  page,
  vigil,
}, testInfo) => {
  const file = path.join(vigil.workspace, 'src', 'app.ts');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'export const version = 1;\n');
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('approvals-empty')).toBeVisible();

  const one = await connectMcpAgent(vigil.home, 'claude-code', vigil.workspace);
  const two = await connectMcpAgent(vigil.home, 'claude-code', vigil.workspace);
  try {
    const wrote = await callMcpTool(one, 'write_file', { path: 'src/app.ts', content: first }, { id: 'first-turn' });
    expect(wrote.decision).toBe('allowed');

    const denied = await heldWrite(page, two, 'deny', () => saveScreens(page, testInfo, 'collision-card'));
    expect(denied).toMatchObject({ isError: true, decision: 'denied' });
    expect(denied.text).toContain('write_file of src/app.ts was not run: claude-code #1, another live session');
    expect(denied.text).toContain('A person denied it. Do not overwrite their change.');
    expect(denied.text).toContain('Read src/app.ts again before changing it');
    expect(await readFile(file, 'utf8')).toBe(first);

    const reread = await heldWrite(page, two, 'deny-reread');
    expect(reread).toMatchObject({ isError: true, decision: 'denied' });
    expect(reread.text).toContain('asks you to read the file again now');
    expect(await readFile(file, 'utf8')).toBe(first);

    const allowed = await heldWrite(page, two, 'approve');
    expect(allowed).toMatchObject({ isError: false, decision: 'asked-allowed' });
    expect(await readFile(file, 'utf8')).toBe(second);
  } finally {
    await one.close();
    await two.close();
  }
});
