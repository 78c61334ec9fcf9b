import { EmptyState } from '../../components/empty-state';

/** Every agent session, live, side by side. */
export function SessionsScreen() {
  return (
    <EmptyState title="No agent sessions yet" testId="sessions-empty">
      <p>Sessions appear here, live, as soon as an agent connects to Vigil.</p>
      <p>
        To watch simulated agents at work, run <code>npm run demo</code> in the Vigil checkout.
      </p>
    </EmptyState>
  );
}
