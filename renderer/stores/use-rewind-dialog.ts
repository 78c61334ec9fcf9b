import type { RewindMode, SessionHistory } from '../../shared/contract/sessions-contract';
import type { RewindFlow } from './sessions-slice';
import { useAppStore } from './store-context';

/** What the rewind dialog shows and where its clicks go (the shape of its props). */
export interface RewindDialogState extends Omit<RewindFlow, 'sessionId'> {
  /** The session's transcript, when it is the one loaded: its turns are listed. */
  readonly history: SessionHistory | undefined;
  readonly onChooseMode: (mode: RewindMode) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onToggleOverwrite: (directory: string, path: string) => void;
}

/** The turn rewind in progress, wherever it was started (a transcript or a timeline row); undefined when there is none. */
export function useRewindDialog(): RewindDialogState | undefined {
  const rewind = useAppStore((state) => state.rewind);
  const transcript = useAppStore((state) => state.transcript);
  const planRewind = useAppStore((state) => state.planRewind);
  const applyRewind = useAppStore((state) => state.applyRewind);
  const cancelRewind = useAppStore((state) => state.cancelRewind);
  const toggleRewindOverwrite = useAppStore((state) => state.toggleRewindOverwrite);
  if (rewind === undefined) return undefined;
  const { sessionId, ...flow } = rewind;
  return {
    ...flow,
    history: transcript?.sessionId === sessionId ? transcript.history : undefined,
    onChooseMode: (mode) => void planRewind(sessionId, rewind.toTurn, mode),
    onConfirm: () => void applyRewind(),
    onCancel: cancelRewind,
    onToggleOverwrite: toggleRewindOverwrite,
  };
}
