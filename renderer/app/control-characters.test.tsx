import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../shared/contract/approvals-contract';
import { ApprovalCard } from '../features/approvals/approval-card';
import { ChangedFileRow } from '../features/timeline/changed-file-row';
import { EntryDiffView } from '../features/memory/entry-diff';
import { PlanConfirmation } from '../components/plan-confirmation';

afterEach(cleanup);

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

describe('names and texts with control characters are shown escaped', () => {
  it('an approval shows the command as it is, a right-to-left override and a carriage return visible, multi-line commands kept', () => {
    const approval: Approval = {
      id: 'apr_1',
      sessionId: 'ses_1',
      agent: `agent${esc}[2J`,
      turn: 1,
      callId: 'call_1',
      tool: 'terminal',
      summary: 'echo safe\rrm -rf ~ \u202e# txt.ecnis\nls',
      reason: `dangerous${esc}[8m hidden`,
      cwd: '/work/dir\u0007',
      requestedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    render(
      <ApprovalCard
        approval={approval}
        laneClass="lane-0"
        now={Date.now()}
        deciding={undefined}
        error={undefined}
        onDecide={vi.fn()}
      />,
    );
    const command = screen.getByTestId('approval-command').textContent;
    expect(command).toBe('echo safe\\rrm -rf ~ \\u202e# txt.ecnis\nls');
    const card = document.body.textContent;
    expect(card).toContain('dangerous\\u001b[8m hidden');
    expect(card).toContain('/work/dir\\u0007');
    expect(card).toContain('agent\\u001b[2J');
    expect(hasRawControl(card)).toBe(false);
  });

  it('a changed file, a restore plan and a memory entry show a newline or an escape in them as text', () => {
    render(
      <>
        <ChangedFileRow
          file={{ path: `src/two\nlines${esc}[31m.ts`, status: 'modified', kind: 'text', additions: 1, deletions: 1 }}
          name={`src/two\nlines${esc}[31m.ts`}
          depth={0}
          isSelected={false}
        />
        <PlanConfirmation
          title="Restore"
          files={[{ path: `evil\n${esc}[1Anames.txt`, action: 'restore', isChangedOutside: false }]}
          confirmLabel="Restore"
          isApplying={false}
          onConfirm={vi.fn()}
          onCancel={vi.fn()}
        />
        <EntryDiffView diff={{ added: [`line one\nred ${esc}[31mtext`], removed: [], kept: 0, isReordered: false }} />
      </>,
    );
    expect(screen.getByTestId('changed-file').textContent).toContain('src/two\\nlines\\u001b[31m.ts');
    expect(document.body.textContent).toContain('evil\\n\\u001b[1Anames.txt');
    expect(screen.getByTestId('entry-diff').textContent).toContain('line one\nred \\u001b[31mtext');
    expect(hasRawControl(document.body.textContent)).toBe(false);
  });
});
