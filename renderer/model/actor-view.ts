import { actorKey, actorOfCheckpoint, describeActor, type Actor } from '../../shared/contract/actor-model';
import { escapeControls } from '../../shared/text/control-characters';
import { sessionLabel } from '../../shared/sessions/session-identity';
import { sessionColourClass, type SessionIdentities } from './session-lanes';
import type { TimelineEntry } from './timeline-filter';

/** Who caused a timeline entry (its session, the app, the CLI, Vigil, or outside Vigil). */
export function actorOfEntry(entry: TimelineEntry): Actor {
  return actorOfCheckpoint(entry);
}

/** The lane key of an entry's actor: its session id, or `@app`, `@cli`, `@vigil`, `@outside`. */
export function entryActorKey(entry: TimelineEntry): string {
  return actorKey(actorOfEntry(entry));
}

/** The CSS class carrying an actor's colour: a session's as assigned; the app, the CLI, Vigil and outside each their own. */
export function actorColourClass(actor: Actor, identities?: SessionIdentities): string {
  return actor.kind === 'session' ? sessionColourClass(actor.sessionId, identities) : `lane-${actor.kind}`;
}

/** The actor as people see it: a session's agent name numbered (`claude-code #2`) when another session shares it. */
export function numberedActor(actor: Actor, identities: SessionIdentities): Actor {
  if (actor.kind !== 'session' || actor.agent === undefined) return actor;
  const label = sessionLabel(actor.agent, identities.get(actor.sessionId));
  return label === actor.agent ? actor : { ...actor, agent: label };
}

/** A session id shortened for a chip (`ses_mwwf…e7f1`): the agent's name is what stays whole. */
export function shortSessionId(sessionId: string): string {
  return sessionId.length <= 14 ? sessionId : `${sessionId.slice(0, 8)}…${sessionId.slice(-4)}`;
}

/**
 * An actor's short name for chips and lanes: the agent's full name (else its shortened session
 * id); every other actor in the same words as the detail and the CLI (`you, in the app`, `the CLI`,
 * `Vigil`, `outside Vigil`).
 */
export function actorName(actor: Actor): string {
  return actor.kind === 'session'
    ? escapeControls(actor.agent ?? shortSessionId(actor.sessionId))
    : escapeControls(describeActor(actor));
}

/** An actor in a sentence, escaped for display: `alpha, turn 3`, `you, in the app`, `the CLI`, `Vigil`, `outside Vigil`. */
export function actorWords(actor: Actor): string {
  return escapeControls(describeActor(actor));
}

/** What each actor kind means, for tooltips. */
export const actorHints: Readonly<Record<Actor['kind'], string>> = {
  session: 'An agent session, in one of its turns',
  app: 'You, in the Vigil app or the served page',
  cli: 'The vigil command line',
  vigil: 'Vigil on its own (retention, a capture), or for someone it did not record',
  outside: 'Nothing Vigil knows of: an editor, a shell, another program, Hermes Agent',
};
