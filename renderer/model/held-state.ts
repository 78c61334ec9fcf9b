import { actorOfCheckpoint, type Actor } from '../../shared/contract/actor-model';
import type { TimelineEntry } from './timeline-filter';

/** Whether a checkpoint holds the files as they were before a change, after one, or at a moment (by hand, at start-up). */
export type HeldWhen = 'before' | 'after' | 'at';

/** What a checkpoint holds, said plainly: "state before the agent's write", "state after the outside edit". */
export interface HeldState {
  readonly when: HeldWhen;
  readonly text: string;
}

/** Whose write, in a possessive a row can say. */
function whose(actor: Actor): string {
  switch (actor.kind) {
    case 'session':
      return "the agent's";
    case 'app':
      return 'your';
    case 'cli':
      return "the CLI's";
    case 'vigil':
      return "Vigil's";
    case 'outside':
      return 'an outside';
  }
}

/**
 * What a checkpoint holds, from its reason. Agents' checkpoints are taken before their write (the
 * version a restore brings back is the one the write replaced), while a memory folder also records
 * the version after a change: after an outside edit, a restore or another Vigil process's write,
 * and after each of Vigil's own memory writes. Two rows side by side can thus mean opposite
 * states; this says which. Undefined for a reason it cannot read.
 */
export function heldState(entry: TimelineEntry): HeldState | undefined {
  const reason = entry.reason;
  const actor = actorOfCheckpoint(entry);
  if (entry.kind === 'pre-rollback') return { when: 'before', text: 'state before the restore' };
  if (entry.source === 'hermes') return { when: 'before', text: "state before Hermes Agent's write" };
  if (reason === 'manual checkpoint') return { when: 'at', text: 'state when taken by hand' };
  if (reason === 'memory at start-up') return { when: 'at', text: 'state when Vigil started watching' };
  const parts = reason.split('; ');
  if (parts.length > 1) {
    // Changes that came in a burst, captured once: the state after all of them, each named.
    const changes = parts.map((part) => changeAfter(part, 'a memory write'));
    return changes.every((change) => change !== undefined)
      ? { when: 'after', text: `state after ${changes.join(' and ')}` }
      : undefined;
  }
  const change = changeAfter(reason, `${whose(actor)} write`);
  if (change !== undefined) return { when: 'after', text: `state after ${change}` };
  if (reason.startsWith('before terminal')) return { when: 'before', text: `state before ${whose(actor)} command` };
  if (reason.startsWith('before ')) return { when: 'before', text: `state before ${whose(actor)} write` };
  return undefined;
}

/** The change a capture's reason names, in words (`write` for Vigil's own write of memory), or undefined for another reason. */
function changeAfter(reason: string, write: string): string | undefined {
  if (reason.startsWith('external edit of ')) return 'the outside edit';
  if (reason.startsWith('restore of ')) return 'the restore';
  if (reason.startsWith('change of ')) return "another Vigil process's write";
  if (reason.startsWith('after ')) return write;
  return undefined;
}
