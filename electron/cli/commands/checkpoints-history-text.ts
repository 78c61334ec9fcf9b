import { escapeControls } from '../../../shared/text/control-characters';
import type { CheckpointEntry } from '../../checkpoints';
import { attributionText } from './checkpoints-list-command';

/** Characters of a turn message a line shows. */
const messageChars = 72;

/** Who made the change after a checkpoint: the agent's session and turn, a person by hand, a restore, or nobody Vigil knows. */
export function actorText(entry: CheckpointEntry): string {
  if (entry.kind === 'pre-rollback') return 'a restore';
  if (entry.source === 'hermes') return 'Hermes Agent';
  const who = attributionText(entry);
  if (who !== '') return who;
  return entry.attribution.origin === 'manual' ? 'by hand' : 'outside any session';
}

/** A turn message as one clean line, cut short: `"Remove the debug line"`. */
export function messageText(message: string | undefined): string {
  if (message === undefined) return '';
  const line = escapeControls(message.trim().split(/\r?\n/, 1)[0] ?? '');
  return `"${line.length > messageChars ? `${line.slice(0, messageChars - 1)}…` : line}"`;
}
