import { EmptyState } from '../../components/empty-state';

/** The checkpoint timeline of one directory, from every session. */
export function TimelineScreen() {
  return (
    <EmptyState title="No checkpoints yet" testId="timeline-empty">
      <p>Vigil takes a checkpoint of a directory before an agent's first change in each turn.</p>
      <p>
        Take one by hand with <code>vigil checkpoint DIR</code>.
      </p>
    </EmptyState>
  );
}
