import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import {
  callCheckpointSchema,
  messageRoleSchema,
  sessionHistorySchema,
  sessionIdSchema,
  sessionSummarySchema,
  toolDecisionSchema,
} from '../contract/sessions-contract';
import { resultSchema } from '../contract/wire';

/**
 * The methods of Vigil's agent protocol (JSON-RPC 2.0 over WebSocket at `/agent`). Every params
 * object is strict: a misspelled key is an error that names it, never silently ignored.
 */

/** The largest batch `tools.call` accepts. */
export const maxToolCallsPerBatch = 64;

/** One tool call in a batch; `arguments` is validated by the tool's own schema, in the executor. */
export const agentToolCallSchema = lazySchema(() =>
  z
    .object({
      /** Your id for the call, echoed in its outcome; Vigil makes one when absent. */
      callId: z.string().min(1).max(200).optional(),
      name: z.string().min(1).max(100),
      /** Required, as the tool's arguments object: a dropped `arguments` is an error, not `{}`. */
      arguments: z.record(z.string(), z.unknown()),
    })
    .strict(),
);

/** What became of one call: the decision, the tool's result (or error) and its checkpoints. */
export const agentToolOutcomeSchema = lazySchema(() =>
  z.object({
    callId: z.string(),
    name: z.string(),
    turn: z.number().int().nonnegative(),
    decision: toolDecisionSchema,
    reason: z.string().optional(),
    result: resultSchema,
    checkpoints: z.array(callCheckpointSchema),
    checkpointProblems: z.array(z.string()),
  }),
);

const sessionParams = lazySchema(() => z.object({ sessionId: sessionIdSchema }).strict());
const empty = lazySchema(() => z.object({}).strict());

/** One method: its params and its result. */
export interface AgentMethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly summary: string;
  readonly params: P;
  readonly result: R;
}

function defineMethods<const T extends Record<string, AgentMethodSpec>>(methods: T): T {
  return methods;
}

/** Every method of the agent protocol. */
export const agentMethods = defineMethods({
  'session.open': {
    summary:
      'Opens a session (or, with `sessionId`, re-attaches to one after a reconnect) and answers with its canonical history.',
    params: lazySchema(() =>
      z
        .object({
          /** Resume this session: the answer carries its canonical history (rewound turns marked). */
          sessionId: sessionIdSchema.optional(),
          agent: z.string().min(1).max(100),
          /** Absolute workspace roots; every path a tool touches must resolve inside one. */
          roots: z.array(z.string().min(1)).min(1).max(32),
          /** Working directory for terminal commands and relative paths; defaults to the first root. */
          cwd: z.string().min(1).optional(),
          /** Your software and version, shown in the UI. */
          client: z.string().min(1).max(200).optional(),
        })
        .strict(),
    ),
    result: lazySchema(() => z.object({ session: sessionSummarySchema, history: sessionHistorySchema })),
  },
  'turn.begin': {
    summary: 'Starts a turn (ending an open one first); checkpoints are taken at most once per directory per turn.',
    params: lazySchema(() => z.object({ sessionId: sessionIdSchema, userMessage: z.string().optional() }).strict()),
    result: lazySchema(() => z.object({ turn: z.number().int().positive() })),
  },
  'message.append': {
    summary: 'Adds a transcript message to the current turn (opening one when none is open).',
    params: lazySchema(() =>
      z.object({ sessionId: sessionIdSchema, role: messageRoleSchema, text: z.string() }).strict(),
    ),
    result: empty,
  },
  'tools.call': {
    summary:
      'Runs a batch of tool calls through policy, checkpoints and the tools; outcomes come back in call order. ' +
      'With `concurrent`, calls on different paths run at the same time.',
    params: lazySchema(() =>
      z
        .object({
          sessionId: sessionIdSchema,
          calls: z.array(agentToolCallSchema).min(1).max(maxToolCallsPerBatch),
          concurrent: z.boolean().default(false),
        })
        .strict(),
    ),
    result: lazySchema(() => z.object({ outcomes: z.array(agentToolOutcomeSchema) })),
  },
  'turn.end': {
    summary: 'Ends the open turn (nothing happens when none is open).',
    params: sessionParams,
    result: empty,
  },
  'session.history': {
    summary: "The session's canonical history: every turn, rewound ones marked.",
    params: sessionParams,
    result: sessionHistorySchema,
  },
  'session.close': {
    summary: 'Ends the session; its log stays, and it can be re-opened by id.',
    params: sessionParams,
    result: lazySchema(() => z.object({ session: sessionSummarySchema })),
  },
});

/** The name of an agent-protocol method. */
export type AgentMethodName = keyof typeof agentMethods;
/** What a caller sends as a method's params (before defaults). */
export type AgentMethodParams<M extends AgentMethodName> = z.input<(typeof agentMethods)[M]['params']>;
/** What the server's handler receives (after parsing and defaults). */
export type ParsedAgentMethodParams<M extends AgentMethodName> = z.output<(typeof agentMethods)[M]['params']>;
/** What a method answers with. */
export type AgentMethodResult<M extends AgentMethodName> = z.output<(typeof agentMethods)[M]['result']>;
/** One call of a `tools.call` batch. */
export type AgentToolCall = z.input<typeof agentToolCallSchema>;
/** The outcome of one call. */
export type AgentToolOutcome = z.infer<typeof agentToolOutcomeSchema>;

/** Whether a string names a method of the agent protocol. */
export function isAgentMethodName(name: string): name is AgentMethodName {
  return Object.hasOwn(agentMethods, name);
}

/** Every method name, for error messages. */
export const agentMethodNames = Object.keys(agentMethods) as readonly AgentMethodName[];
