import type { RewindRecord, SessionFile, ToolCallBrief } from '../../shared/contract/sessions-contract';
import type { OverwriteNotice } from '../../shared/contract/call-collision-contract';
import { escapeControls } from '../../shared/text/control-characters';
import { attachOverwrite } from './session-overwrites';
import type { SessionRecord } from './session-records';
import { addEffects } from './session-summary-parts';

type CallRecord = Extract<SessionRecord, { type: 'call' }>;
type ResultRecord = Extract<SessionRecord, { type: 'result' }>;

/** One turn while the session is loaded. */
export interface TurnState {
  readonly turn: number;
  readonly startedAt: string;
  endedAt?: string;
  rewoundAt?: string;
  /** Messages, and tool calls by their sequence number, in order. */
  readonly entries: (
    | { readonly kind: 'message'; readonly at: string; readonly role: 'user' | 'assistant'; readonly text: string }
    | { readonly kind: 'call'; readonly seq: number }
  )[];
}

/** A tool call while the session is loaded: its decision, and its result once it came. */
export interface CallState {
  readonly record: CallRecord;
  result?: ResultRecord;
}

/** A session rebuilt from its log: the same reducer serves live updates and reloading. */
export interface SessionState {
  readonly id: string;
  readonly agent: string;
  client?: string;
  transcriptPath?: string;
  roots: readonly string[];
  cwd?: string;
  readonly createdAt: string;
  updatedAt: string;
  /** The agent's last activity: not a disconnection, a close or a turn's end, which Vigil may write on its own (shutdown, idle time). */
  lastActiveAt: string;
  isClosed: boolean;
  currentTurn: number;
  isTurnOpen: boolean;
  readonly turns: Map<number, TurnState>;
  readonly calls: Map<number, CallState>;
  lastSeq: number;
  lastToolCall?: ToolCallBrief;
  /** Each call's brief by sequence number (the summary shows the latest). */
  readonly briefs: Map<number, ToolCallBrief>;
  /** The files its calls touched, least recently touched first. */
  readonly files: Map<string, SessionFile>;
  readonly rewinds: RewindRecord[];
  readonly warnings: string[];
  /** Its changes other sessions' calls overwrote, in order, and those attached to the call that made each (by sequence number). */
  readonly overwrites: OverwriteNotice[];
  readonly overwrittenCalls: Map<number, OverwriteNotice[]>;
}

/** A new session's state from its `opened` record. */
export function initialState(record: Extract<SessionRecord, { type: 'opened' }>): SessionState {
  return {
    id: record.id,
    agent: record.agent,
    client: record.client,
    transcriptPath: record.transcriptPath,
    roots: record.roots,
    cwd: record.cwd,
    createdAt: record.at,
    updatedAt: record.at,
    lastActiveAt: record.at,
    isClosed: false,
    currentTurn: 0,
    isTurnOpen: false,
    turns: new Map(),
    calls: new Map(),
    lastSeq: 0,
    briefs: new Map(),
    files: new Map(),
    rewinds: [],
    warnings: [],
    overwrites: [],
    overwrittenCalls: new Map(),
  };
}

/** How long a call's one line may be before it is cut (with an ellipsis, so a cut never reads as the whole). */
const callLineLimit = 160;

/**
 * One line that describes a call: its path, command or action. Line breaks and other control
 * characters are escaped, not folded into spaces: a file named `two\nlines.txt` is not the file
 * `two lines.txt`, and a second line of a command is part of what ran.
 */
export function describeCall(name: string, args: unknown): string {
  if (typeof args !== 'object' || args === null) return name;
  const record = args as Record<string, unknown>;
  const value = [
    record['path'],
    record['file_path'],
    record['notebook_path'],
    record['command'],
    record['action'],
  ].find((candidate) => typeof candidate === 'string');
  // A path is shown exactly; a command loses only the blank space around it.
  const text = typeof value !== 'string' ? '' : value === record['command'] ? value.trim() : value;
  const target = typeof record['target'] === 'string' ? ` ${record['target']}` : '';
  const line = escapeControls(`${text}${target}`);
  if (line.trim() === '') return name;
  return line.length > callLineLimit ? `${line.slice(0, callLineLimit - 1)}…` : line;
}

function brief(state: SessionState, call: CallState): ToolCallBrief {
  const { record } = call;
  return {
    callId: record.callId,
    name: record.name,
    turn: record.turn,
    decision: record.decision,
    isOk: call.result?.result.ok ?? false,
    summary: describeCall(record.name, record.arguments),
    at: call.result?.at ?? record.at,
    ...(call.result?.collisions === undefined ? {} : { collisions: call.result.collisions }),
    ...overwrittenByOf(state, record.seq),
  };
}

/** A call's `overwrittenBy`, when another session's call overwrote its change. */
export function overwrittenByOf(state: SessionState, seq: number): { overwrittenBy?: OverwriteNotice[] } {
  const notices = state.overwrittenCalls.get(seq);
  return notices === undefined ? {} : { overwrittenBy: [...notices] };
}

/** A call's brief made again (its result or an overwrite of its change came). */
function refreshBrief(state: SessionState, seq: number): void {
  const call = state.calls.get(seq);
  if (call === undefined) return;
  state.briefs.set(seq, brief(state, call));
  if (state.lastToolCall?.callId === call.record.callId) state.lastToolCall = brief(state, call);
}

function ensureTurn(state: SessionState, turn: number, at: string): TurnState {
  let found = state.turns.get(turn);
  if (found === undefined) {
    found = { turn, startedAt: at, entries: [] };
    state.turns.set(turn, found);
  }
  return found;
}

/** Records that do not count as the agent's activity. */
const passiveRecords: ReadonlySet<SessionRecord['type']> = new Set([
  'disconnected',
  'closed',
  'turn-ended',
  'overwritten',
]);

/** Applies one record to a session's state (live, and when the log is reloaded). */
export function applyRecord(state: SessionState, record: SessionRecord): void {
  state.updatedAt = record.at;
  if (!passiveRecords.has(record.type)) state.lastActiveAt = record.at;
  switch (record.type) {
    case 'opened':
    case 'resumed':
      if (record.type === 'resumed' && record.client !== undefined) state.client = record.client;
      if (record.type === 'resumed' && record.transcriptPath !== undefined)
        state.transcriptPath = record.transcriptPath;
      state.isClosed = false;
      break;
    case 'roots':
      state.roots = record.roots;
      if (record.cwd === undefined) delete state.cwd;
      else state.cwd = record.cwd;
      break;
    case 'turn-began':
      ensureTurn(state, record.turn, record.at);
      state.currentTurn = Math.max(state.currentTurn, record.turn);
      state.isTurnOpen = true;
      break;
    case 'message':
      ensureTurn(state, record.turn, record.at).entries.push({
        kind: 'message',
        at: record.at,
        role: record.role,
        text: record.text,
      });
      break;
    case 'call': {
      ensureTurn(state, record.turn, record.at).entries.push({ kind: 'call', seq: record.seq });
      const call: CallState = { record };
      state.calls.set(record.seq, call);
      state.lastSeq = Math.max(state.lastSeq, record.seq);
      state.lastToolCall = brief(state, call);
      state.briefs.set(record.seq, state.lastToolCall);
      break;
    }
    case 'result': {
      const call = state.calls.get(record.seq);
      if (call === undefined) break;
      call.result = record;
      refreshBrief(state, record.seq);
      if (record.effects !== undefined) addEffects(state.files, record.effects, record.at);
      break;
    }
    case 'turn-ended': {
      const turn = state.turns.get(record.turn);
      if (turn !== undefined) turn.endedAt = record.at;
      if (record.turn === state.currentTurn) state.isTurnOpen = false;
      break;
    }
    case 'rewound': {
      const { type: _type, ...rewind } = record;
      state.rewinds.push(rewind);
      for (const turn of record.rewoundTurns) {
        const found = state.turns.get(turn);
        if (found !== undefined) found.rewoundAt ??= record.at;
      }
      break;
    }
    case 'overwritten': {
      const seq = attachOverwrite(state, record);
      if (seq !== undefined) refreshBrief(state, seq);
      break;
    }
    case 'disconnected':
      state.isTurnOpen = false;
      break;
    case 'closed':
      state.isClosed = true;
      state.isTurnOpen = false;
      break;
  }
}
