import { randomUUID } from 'node:crypto';
import type {
  Approval,
  ApprovalAnswer,
  ApprovalCollision,
  ApprovalDecider,
  ApprovalDecision,
} from '../../shared/contract/approvals-contract';
import { AppError } from '../../shared/errors';
import type { Disposer, EventHub } from '../lib';
import type { Logger } from '../logging';

/** What a tool call that needs a human sends to the approvals queue. */
export interface ApprovalRequest {
  readonly sessionId: string;
  readonly agent: string;
  readonly turn: number;
  readonly callId: string;
  readonly tool: string;
  readonly summary: string;
  readonly reason: string;
  readonly cwd?: string;
  /** How long to wait before denying (fail closed). */
  readonly timeoutMs: number;
  /** Set when the call would overwrite another live session's recent change. */
  readonly collision?: ApprovalCollision;
  /** Its checkpoint failed: approved, it runs without one. */
  readonly isWithoutCheckpoint?: boolean;
}

/** Where a person's decision came from: the app's window, or the page `vigil serve` serves. */
export type ApprovalChannel = 'window' | 'page';

/** How a wait for a human ended. */
export interface ApprovalResult {
  readonly approval: Approval;
  readonly decision: ApprovalDecision;
  readonly decidedBy: ApprovalDecider;
  /** For a person's decision: which UI it came from. */
  readonly via?: ApprovalChannel;
  /** The person denied it and asked that the agent read the file again (a collision). */
  readonly isReread?: boolean;
}

interface Pending {
  readonly approval: Approval;
  readonly timer: NodeJS.Timeout | undefined;
  readonly settle: (result: ApprovalResult) => void;
}

/** Options of the approvals queue. */
export interface ApprovalServiceOptions {
  readonly events: Pick<EventHub, 'emit'>;
  readonly logger: Logger;
  /**
   * Whether a human can answer in this process (the app, `vigil serve`). When false (a one-shot
   * CLI), a call that needs a human is denied at once instead of waiting for nobody.
   */
  readonly canAsk?: boolean;
}

/**
 * Tool calls waiting for a human decision. Each wait ends exactly once: allowed or denied by a
 * human, denied when it times out, when its session closes, or when the core shuts down — never
 * left hanging, never allowed by default (fail closed).
 */
export class ApprovalService {
  readonly #pending = new Map<string, Pending>();
  readonly #listeners = new Set<(sessionId: string) => void>();
  readonly #events: Pick<EventHub, 'emit'>;
  readonly #logger: Logger;
  readonly #canAsk: boolean;

  constructor(options: ApprovalServiceOptions) {
    this.#events = options.events;
    this.#logger = options.logger;
    this.#canAsk = options.canAsk ?? true;
  }

  /** Waits for a decision on one call. Never rejects. */
  request(request: ApprovalRequest): Promise<ApprovalResult> {
    const requestedAt = new Date();
    const approval: Approval = {
      id: randomUUID(),
      sessionId: request.sessionId,
      agent: request.agent,
      turn: request.turn,
      callId: request.callId,
      tool: request.tool,
      summary: request.summary,
      reason: request.reason,
      cwd: request.cwd,
      requestedAt: requestedAt.toISOString(),
      expiresAt: new Date(requestedAt.getTime() + request.timeoutMs).toISOString(),
      ...(request.collision === undefined ? {} : { collision: request.collision }),
      ...(request.isWithoutCheckpoint === true ? { isWithoutCheckpoint: true } : {}),
    };
    if (!this.#canAsk) return Promise.resolve({ approval, decision: 'denied', decidedBy: 'unattended' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#settle(approval.id, 'denied', 'timeout'), request.timeoutMs);
      this.#pending.set(approval.id, { approval, timer, settle: resolve });
      this.#logger.info('tool call waits for a human', {
        approval: approval.id,
        session: approval.sessionId,
        tool: approval.tool,
        summary: approval.summary,
      });
      this.#events.emit('approvals:requested', { approval });
      this.#notify(approval.sessionId);
    });
  }

  /** The calls waiting now, oldest first. */
  list(): readonly Approval[] {
    return [...this.#pending.values()].map((pending) => pending.approval);
  }

  /** Whether a session has a call waiting for a human. */
  isWaiting(sessionId: string): boolean {
    return [...this.#pending.values()].some((pending) => pending.approval.sessionId === sessionId);
  }

  /** A human's decision, from the UI named by `via`. `not_found` when the call is no longer waiting (decided, timed out). */
  decide(id: string, decision: ApprovalAnswer, via: ApprovalChannel): ApprovalResult {
    const result = this.#settle(
      id,
      decision === 'allow' ? 'allowed' : 'denied',
      'human',
      via,
      decision === 'deny-reread',
    );
    if (result === undefined) {
      throw new AppError(
        'not_found',
        `No tool call is waiting under approval ${id}: it was already decided, timed out, or its session closed.`,
        { id },
      );
    }
    return result;
  }

  /** Denies every call of a session (it closed). */
  denySession(sessionId: string): void {
    for (const pending of [...this.#pending.values()]) {
      if (pending.approval.sessionId === sessionId) this.#settle(pending.approval.id, 'denied', 'session-closed');
    }
  }

  /** Calls `listener(sessionId)` whenever a session starts or stops waiting. */
  onWaitingChanged(listener: (sessionId: string) => void): Disposer<void> {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Denies everything still waiting (the core is shutting down). */
  dispose(): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, 'denied', 'shutdown');
  }

  #settle(
    id: string,
    decision: ApprovalDecision,
    decidedBy: ApprovalDecider,
    via?: ApprovalChannel,
    isReread = false,
  ): ApprovalResult | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    const result: ApprovalResult = {
      approval: pending.approval,
      decision,
      decidedBy,
      via,
      ...(isReread ? { isReread } : {}),
    };
    this.#logger.info('tool call decided', {
      approval: id,
      decision,
      decidedBy,
      via,
    });
    this.#events.emit('approvals:decided', {
      approval: pending.approval,
      decision,
      decidedBy,
      at: new Date().toISOString(),
    });
    pending.settle(result);
    this.#notify(pending.approval.sessionId);
    return result;
  }

  #notify(sessionId: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(sessionId);
      } catch (error) {
        this.#logger.error('approval listener failed', { error });
      }
    }
  }
}
