import { useState } from 'react';
import { useAppStore } from '../../stores/store-context';

/** "When did this text appear or go away?": a field of the timeline; Enter lists where its count changed, in any file. */
export function PastSearchField({ dir }: { readonly dir: string }) {
  const searchPast = useAppStore((state) => state.searchPast);
  const [text, setText] = useState('');
  return (
    <form
      className="past-search"
      role="search"
      aria-label="Search the past"
      onSubmit={(event) => {
        event.preventDefault();
        void searchPast(dir, text);
      }}
    >
      <input
        className="input mono"
        placeholder="Text appeared / went away (Enter)"
        aria-label="When did this text appear in a file or go away?"
        title="Lists the checkpoints after which the count of this text in a file changed (what git log -S answers)"
        data-testid="past-search"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}
