import { useState, type SyntheticEvent } from 'react';

/** "Checkpoint now" with an optional name: typed names become the checkpoint's subject; empty, it is a "manual checkpoint". */
export function CheckpointNowForm({ onCheckpoint }: { readonly onCheckpoint: (name: string) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [isBusy, setBusy] = useState(false);

  async function submit(event: SyntheticEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setBusy(true);
    try {
      if (await onCheckpoint(name)) setName('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="checkpoint-now" onSubmit={(event) => void submit(event)}>
      <input
        className="input input-small"
        placeholder="Name (optional)"
        aria-label="Name of the new checkpoint (optional)"
        data-testid="checkpoint-name"
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <button
        type="submit"
        className="button button-small"
        data-testid="checkpoint-now"
        disabled={isBusy}
        title="Take a checkpoint of this directory now"
      >
        Checkpoint now
      </button>
    </form>
  );
}
