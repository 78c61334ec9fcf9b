import { escapeControls } from '../../shared/text/control-characters';

/** What a checkpoint says about who caused the change after it. */
export interface ActorFacts {
  readonly kind: string;
  readonly source?: string | undefined;
  readonly attribution: {
    readonly agent?: string | undefined;
    readonly sessionId?: string | undefined;
    readonly turn?: number | undefined;
    readonly origin?: string | undefined;
  };
}

/** Who made the change after a checkpoint, in words: `alpha · turn 3`, `a restore`, `by hand`, `outside any session`. */
export function checkpointActor(entry: ActorFacts): string {
  if (entry.kind === 'pre-rollback') return 'a restore';
  if (entry.source === 'hermes') return 'Hermes Agent';
  const { agent, sessionId, turn, origin } = entry.attribution;
  const who = agent ?? (sessionId === undefined ? undefined : `session ${sessionId.slice(0, 10)}`);
  if (who !== undefined) return escapeControls(turn === undefined ? who : `${who} · turn ${turn}`);
  return origin === 'manual' ? 'by hand' : 'outside any session';
}

/** A turn message as one clean line, cut short (the whole text stays in the transcript). */
export function turnMessageLine(message: string | undefined, max = 90): string | undefined {
  if (message === undefined) return undefined;
  const line = escapeControls(message.trim().split(/\r?\n/, 1)[0] ?? '');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
