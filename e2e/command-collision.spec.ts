import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { connectMcpAgent } from './fixtures/agents';
import { callMcpTool } from './fixtures/mcp-calls';
import { saveScreens } from './fixtures/screens';
import { expect, test } from './fixtures/vigil-fixture';

const first = 'export const version = 2; // claude-code\n';
const third = 'export const version = 3; // codex\n';

/** The card of the session of `agent` (each agent here has one session). */
function card(page: Page, agent: string) {
  return page
    .getByTestId('session-card')
    .filter({ has: page.getByTestId('session-agent').getByText(agent, { exact: true }) });
}

/** Opens a session's transcript from its card. */
async function openTranscript(page: Page, agent: string): Promise<void> {
  await page.keyboard.press('Alt+1');
  await card(page, agent)
    .getByRole('button', { name: /Open the transcript/ })
    .click();
  await expect(page.getByTestId('transcript-panel')).toBeVisible();
}

test("a terminal command overwrites another session's file: both cards say so, and 'Restore their version' brings it back", async ({
  page,
  vigil,
}, testInfo) => {
  const file = path.join(vigil.workspace, 'src', 'app.ts');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'export const version = 1;\n');
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'connected');

  const claude = await connectMcpAgent(vigil.home, 'claude-code', vigil.workspace);
  const codex = await connectMcpAgent(vigil.home, 'codex', vigil.workspace);
  try {
    const wrote = await callMcpTool(claude, 'write_file', { path: 'src/app.ts', content: first }, { id: 'c1' });
    expect(wrote.isError, wrote.text).toBe(false);
    // A command is not held (what it writes is known only after it ran): it runs, and both sides are told.
    const command = await callMcpTool(
      codex,
      'terminal',
      { command: `printf '${third.trimEnd()}\\n' > src/app.ts` },
      { id: 'x1', userMessage: 'Bump the version' },
    );
    expect(command).toMatchObject({ isError: false, decision: 'allowed' });
    expect(await readFile(file, 'utf8')).toBe(third);

    await page.keyboard.press('Alt+1');
    // The command's own card: what it overwrote, and whose change.
    await expect(card(page, 'codex').getByTestId('session-call-collision')).toHaveText(
      /^overwrote src\/app\.ts, changed by claude-code \d+ s ago$/,
    );
    // The card of the session whose change was overwritten says it too: who, with what, when.
    await expect(card(page, 'claude-code').getByTestId('session-overwrite')).toHaveText(
      /^codex overwrote your change to src\/app\.ts at \d\d:\d\d:\d\d \(terminal\)$/,
    );
    await expect(card(page, 'codex').getByTestId('session-overwrite')).toHaveCount(0);
    await saveScreens(page, testInfo, 'command-collision-cards');

    // claude-code's transcript: the row of its write says it was overwritten, with a way back to its version.
    await openTranscript(page, 'claude-code');
    const overwritten = page.getByTestId('call-overwritten');
    await expect(overwritten).toHaveCount(1);
    await expect(overwritten).toContainText('codex overwrote your change to src/app.ts');
    await expect(overwritten.getByTestId('restore-mine')).toBeVisible();
    await saveScreens(page, testInfo, 'command-collision-overwritten');

    // codex's transcript: the command's row names the collision; "Restore their version" shows the plan of that one file.
    await openTranscript(page, 'codex');
    const collision = page.getByTestId('call-collision');
    await expect(collision).toContainText(/Collision: overwrote src\/app\.ts, changed by claude-code \d+ s ago/);
    await collision.getByTestId('restore-theirs').click();
    const plan = page.getByTestId('restore-plan');
    await expect(plan.getByTestId('plan-headline')).toHaveText('1 to restore');
    await expect(plan.getByTestId('plan-restore')).toContainText('app.ts');
    await saveScreens(page, testInfo, 'command-collision-plan');
    // Nothing is written before the person confirms.
    expect(await readFile(file, 'utf8')).toBe(third);
    await plan.getByTestId('plan-confirm').click();
    await expect(plan).toHaveCount(0);
    await expect(page.getByTestId('restore-outcome')).toHaveAttribute('data-state', 'complete');
    // Their version, exactly: claude-code's write, not the file before it.
    expect(await readFile(file, 'utf8')).toBe(first);
  } finally {
    await claude.close();
    await codex.close();
  }
});
