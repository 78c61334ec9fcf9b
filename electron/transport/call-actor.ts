import type { PlainActor } from '../../shared/contract/actor-model';
import type { CallContext } from './call-handlers';

/**
 * Who is behind a contract call that changes something, as checkpoints and the write ledger record
 * it: the person in the app (the desktop window over IPC, the served page over its WebSocket) or
 * the command line (the CLI's relay over `POST /ws`, a one-shot core in the CLI's own process, a
 * program holding the UI's credential on a WebSocket without an Origin).
 */
export function actorOfCall(context: CallContext): Extract<PlainActor, 'app' | 'cli'> {
  switch (context.transport) {
    case 'ipc':
      return 'app';
    case 'websocket':
      return context.peer === 'program' ? 'cli' : 'app';
    case 'http':
    case 'cli':
      return 'cli';
    case 'test':
      return context.peer === 'program' ? 'cli' : 'app';
  }
}
