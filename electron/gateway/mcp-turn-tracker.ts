import type { Logger } from '../logging';
import type { SessionService } from '../sessions';
import type { TurnMark } from './turn-mark';

/** The open turn as the tracker knows it: implicit (a burst of calls) or marked by the client. */
type OpenTurn = { readonly kind: 'burst' } | { readonly kind: 'marked'; readonly id: string };

/**
 * Turn boundaries for an MCP client, which has no turn methods of its own. A call with a
 * `_meta["vigil/turn"]` mark joins the turn of that id, or ends the open turn and starts one; such
 * a turn lasts until the id changes or the session ends. Unmarked calls form bursts: the first
 * call opens a turn and it ends after `idleGapMs` with no call in flight.
 */
export class McpTurnTracker {
  readonly #sessions: SessionService;
  readonly #sessionId: string;
  readonly #idleGapMs: () => number;
  readonly #logger: Logger;
  #open: OpenTurn | undefined;
  #inFlight = 0;
  #timer: NodeJS.Timeout | undefined;
  #queue: Promise<void> = Promise.resolve();
  #isDisposed = false;

  /** `idleGapMs` is read at each call's end (config.json can change it). */
  constructor(sessions: SessionService, sessionId: string, idleGapMs: () => number, logger: Logger) {
    this.#sessions = sessions;
    this.#sessionId = sessionId;
    this.#idleGapMs = idleGapMs;
    this.#logger = logger;
  }

  /** Called before a tool call: opens or switches the turn as the mark (or its absence) says. */
  enter(mark: TurnMark | undefined): Promise<void> {
    this.#clearTimer();
    this.#inFlight += 1;
    const step = this.#queue.then(() => this.#switchTo(mark));
    this.#queue = step.catch(() => undefined);
    return step.catch((error: unknown) => {
      this.leave();
      throw error;
    });
  }

  /** Called after a tool call: when nothing is in flight, an implicit turn ends after the idle gap. */
  leave(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#inFlight > 0 || this.#open?.kind !== 'burst' || this.#isDisposed) return;
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#queue = this.#queue.then(() => this.#endIdleTurn());
    }, this.#idleGapMs());
    this.#timer.unref();
  }

  /** Stops the idle timer; the session's owner ends the session itself. */
  dispose(): void {
    this.#isDisposed = true;
    this.#clearTimer();
  }

  async #switchTo(mark: TurnMark | undefined): Promise<void> {
    const isOpen = this.#open !== undefined && this.#sessions.get(this.#sessionId).isTurnOpen;
    if (mark === undefined) {
      if (isOpen) return;
      await this.#sessions.beginTurn(this.#sessionId);
      this.#open = { kind: 'burst' };
      return;
    }
    if (isOpen && this.#open?.kind === 'marked' && this.#open.id === mark.id) return;
    await this.#sessions.beginTurn(this.#sessionId, { userMessage: mark.userMessage });
    this.#open = { kind: 'marked', id: mark.id };
  }

  async #endIdleTurn(): Promise<void> {
    if (this.#inFlight > 0 || this.#open?.kind !== 'burst' || this.#isDisposed) return;
    this.#open = undefined;
    try {
      await this.#sessions.endTurn(this.#sessionId);
    } catch (error) {
      this.#logger.warn('could not end an idle MCP turn', { sessionId: this.#sessionId, error });
    }
  }

  #clearTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
