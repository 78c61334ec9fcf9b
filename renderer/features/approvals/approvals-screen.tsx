import { EmptyState } from '../../components/empty-state';

/** Dangerous calls waiting for a human decision. */
export function ApprovalsScreen() {
  return (
    <EmptyState title="Nothing waits for approval" testId="approvals-empty">
      <p>When an agent asks to run a dangerous command, it waits here for your decision.</p>
    </EmptyState>
  );
}
