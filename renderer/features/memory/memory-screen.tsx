import { EmptyState } from '../../components/empty-state';

/** The agents' memory files, their entries and their external edits. */
export function MemoryScreen() {
  return (
    <EmptyState title="No memory files yet" testId="memory-empty">
      <p>MEMORY.md and USER.md of each memory directory appear here, with edits from outside Vigil as they happen.</p>
    </EmptyState>
  );
}
