/**
 * Who made a change: an agent session (in one of its turns), the person in the app (the desktop
 * window or the served page), the command line, Vigil on its own (retention, a capture whose
 * initiator it did not record), or nothing Vigil knows of ("outside Vigil": an editor, a shell, another
 * program, Hermes Agent's own store). Checkpoints, the write ledger, restore plans and cuts use it.
 * Plain types and helpers without zod, so that printing an actor (the CLI's restore) loads no
 * schema library; the contract's schemas for them are in actor-contract.ts.
 */
export type Actor =
  | {
      kind: 'session';
      sessionId: string;
      agent?: string | undefined;
      turn?: number | undefined;
      tool?: string | undefined;
    }
  | { kind: 'app' }
  | { kind: 'cli' }
  | { kind: 'vigil' }
  | { kind: 'outside' };

/** The actors that are not a session, as the `Vigil-Actor` trailer names them: app | cli | vigil | outside. */
export type PlainActor = 'app' | 'cli' | 'vigil' | 'outside';

/** The plain actors' names, for code that checks a name without building the schema (commit trailers). */
export const plainActorNames: readonly PlainActor[] = ['app', 'cli', 'vigil', 'outside'];

/** What `actorOfCheckpoint` reads of a checkpoint (its attribution and, for old commits without an actor, its kind and reason). */
export interface AttributedCheckpoint {
  readonly attribution: {
    readonly sessionId?: string | undefined;
    readonly turn?: number | undefined;
    readonly tool?: string | undefined;
    readonly agent?: string | undefined;
    readonly origin?: 'manual' | undefined;
    readonly actor?: PlainActor | undefined;
  };
  readonly reason: string;
  readonly source?: 'vigil' | 'hermes' | undefined;
}

/** The attribution a checkpoint or a write carries, as `actorOfAttribution` reads it. */
export type ActorAttribution = AttributedCheckpoint['attribution'];

/** Who an attribution names: its session, else its plain actor, else Vigil (for whomever). */
export function actorOfAttribution(attribution: ActorAttribution): Actor {
  if (attribution.sessionId !== undefined) {
    return {
      kind: 'session',
      sessionId: attribution.sessionId,
      agent: attribution.agent,
      turn: attribution.turn,
      tool: attribution.tool,
    };
  }
  return { kind: attribution.actor ?? 'vigil' };
}

/**
 * Who caused a checkpoint. A session's checkpoint names the session; others carry their actor
 * (`Vigil-Actor`). Checkpoints made before actors were recorded say only what is certain: a capture
 * of an external edit was outside Vigil; anything else Vigil took itself (by hand, a restore point,
 * a capture) is Vigil's, for whomever it was. Hermes Agent's own checkpoints are outside Vigil.
 */
export function actorOfCheckpoint(entry: AttributedCheckpoint): Actor {
  if (entry.source === 'hermes') return { kind: 'outside' };
  const { attribution } = entry;
  if (
    attribution.sessionId === undefined &&
    attribution.actor === undefined &&
    entry.reason.startsWith('external edit of')
  )
    return { kind: 'outside' };
  return actorOfAttribution(attribution);
}

/** A stable key per actor: the session id, or `app`, `cli`, `vigil`, `outside` (lanes, filters). */
export function actorKey(actor: Actor): string {
  return actor.kind === 'session' ? actor.sessionId : `@${actor.kind}`;
}

/** Whether two actors are the same one (a session's turn and tool do not matter). */
export function isSameActor(a: Actor, b: Actor): boolean {
  return actorKey(a) === actorKey(b);
}

/**
 * An actor in words, for a person: `alpha, turn 3` (the agent's name, else its session id), `you,
 * in the app`, `the CLI`, `Vigil`, `outside Vigil`. Names are shown as given: callers escape them.
 */
export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'session':
      return `${actor.agent ?? actor.sessionId}${actor.turn === undefined ? '' : `, turn ${actor.turn}`}`;
    case 'app':
      return 'you, in the app';
    case 'cli':
      return 'the CLI';
    case 'vigil':
      return 'Vigil';
    case 'outside':
      return 'outside Vigil';
  }
}
