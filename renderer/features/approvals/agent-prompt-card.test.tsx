import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionColourClass } from '../../model/session-lanes';
import { AgentPromptCard } from './agent-prompt-card';

afterEach(cleanup);

describe('AgentPromptCard', () => {
  it("shows a call waiting at the agent's own prompt read-only: what, why, whose, and that the agent's prompt decides", () => {
    render(
      <AgentPromptCard
        call={{
          callId: 'toolu_1',
          name: 'Bash',
          turn: 2,
          summary: 'touch asked.txt',
          at: '2026-05-01T11:59:00Z',
          isAsking: true,
          reason: 'the test asks about every touch',
          agentName: 'Gemini CLI',
        }}
        sessionId="gemini-cli-abc"
        label="gemini-cli #2"
        laneClass={sessionColourClass('gemini-cli-abc')}
      />,
    );
    const card = screen.getByTestId('agent-prompt-card');
    expect(within(card).getByTestId('approval-command').textContent).toBe('touch asked.txt');
    expect(card.textContent).toContain('gemini-cli #2');
    expect(card.textContent).toContain('asking in Gemini CLI');
    expect(card.textContent).toContain('the test asks about every touch');
    expect(within(card).getByTestId('agent-prompt-note').textContent).toContain(
      "The decision is made in Gemini CLI's own permission prompt",
    );
    // Nothing here decides it: no buttons, no countdown to a denial.
    expect(within(card).queryAllByRole('button')).toHaveLength(0);
    expect(within(card).queryByTestId('approve')).toBeNull();
    expect(within(card).queryByTestId('deny')).toBeNull();
    expect(card.textContent).not.toContain('Denied in');
  });
});
