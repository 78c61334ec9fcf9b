/** While a turn is open or a call waits for its result, the agent is quiet for at least this long before it counts as gone. */
const busyIdleMs = 60 * 60_000;

/**
 * When a hook session's agent went away without SessionEnd (it crashed, was killed): no event for
 * `sessions.idleMinutes` (an hour at least while a turn is open or a call runs) ends the session as
 * disconnected, as for an MCP client; its next event revives it. Resident cores only.
 */
export class HookLifetime {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #idleMs: () => number;
  readonly #expire: (sessionId: string, quietMs: number) => void;

  /** `idleMs` is read at each event (config.json can change it). */
  constructor(options: {
    readonly idleMs: () => number;
    readonly expire: (sessionId: string, quietMs: number) => void;
  }) {
    this.#idleMs = options.idleMs;
    this.#expire = options.expire;
  }

  /** An event of the session arrived: its quiet time starts again. */
  touch(sessionId: string, isBusy: boolean): void {
    this.forget(sessionId);
    const idleMs = this.#idleMs();
    const quietMs = isBusy ? Math.max(idleMs, busyIdleMs) : idleMs;
    const timer = setTimeout(() => {
      this.#timers.delete(sessionId);
      this.#expire(sessionId, quietMs);
    }, quietMs);
    timer.unref();
    this.#timers.set(sessionId, timer);
  }

  /** The session ended: no timer. */
  forget(sessionId: string): void {
    clearTimeout(this.#timers.get(sessionId));
    this.#timers.delete(sessionId);
  }

  /** Stops every timer. */
  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
