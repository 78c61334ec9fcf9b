import type { HistoryEntry, SessionHistory } from '../../../shared/contract/sessions-contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { describeCall } from '../../sessions/session-state';
import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { localTime } from './checkpoint-command';
import { withSessionLogs } from './sessions-command-support';

/** One line of text, at most `max` characters, control characters escaped. */
function clip(text: string, max = 120): string {
  const line = escapeControls(text.replace(/\s+/gu, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Why a denial happened, when no person decided it: timed out, or nobody could be asked. */
const unansweredDenials: Readonly<Record<string, string>> = {
  timeout: 'denied (timed out)',
  unattended: 'denied (nobody could be asked)',
  'session-closed': 'denied (session closed first)',
  shutdown: 'denied (Vigil shut down first)',
};

/** The decision as the history line shows it: a denial nobody answered says why. */
function decisionLabel(entry: Extract<HistoryEntry, { kind: 'tool-call' }>): string {
  if (entry.decision !== 'denied' || entry.result.ok) return entry.decision;
  const decidedBy = entry.result.error.details?.['decidedBy'];
  return (typeof decidedBy === 'string' ? unansweredDenials[decidedBy] : undefined) ?? entry.decision;
}

function entryLines(entry: HistoryEntry): string[] {
  if (entry.kind === 'message') return [`    ${entry.role === 'user' ? 'user' : 'agent'}: ${clip(entry.text)}`];
  const mark = entry.isInterrupted ? '?' : entry.result.ok ? '✓' : '✗';
  const lines = [
    `    ${mark} ${entry.name} ${clip(describeCall(entry.name, entry.arguments), 80)}  [${decisionLabel(entry)}]`,
  ];
  for (const checkpoint of entry.checkpoints) {
    if (checkpoint.kind === 'created')
      lines.push(`        checkpoint ${checkpoint.checkpointId?.slice(0, 8) ?? ''} of ${checkpoint.directory}`);
  }
  for (const problem of entry.checkpointProblems) lines.push(`        ! ${clip(problem)}`);
  if (!entry.result.ok) lines.push(`        ${entry.result.error.code}: ${clip(entry.result.error.message)}`);
  return lines;
}

/** The history of a session as text: turns, messages, calls with their decision and checkpoint. */
export function historyText(history: SessionHistory): string[] {
  const { session } = history;
  const lines = [
    `Session ${session.id}: ${escapeControls(session.agent)}${session.client === undefined ? '' : ` (${escapeControls(session.client)})`}, ${session.status}`,
    `  workspace: ${escapeControls(session.roots.join(', ')) || '(none)'}${session.cwd === undefined ? '' : `  cwd: ${escapeControls(session.cwd)}`}`,
    `  opened ${localTime(session.createdAt)}, last active ${localTime(session.lastActiveAt)}, ${session.toolCallCount} tool call(s)`,
    ...session.warnings.map((warning) => `  ! ${warning}`),
  ];
  for (const turn of history.turns) {
    lines.push(
      '',
      `  Turn ${turn.turn}  ${localTime(turn.startedAt)}${turn.isRewound ? '  (rewound: the agent no longer sees it)' : ''}`,
    );
    for (const entry of turn.entries) lines.push(...entryLines(entry));
  }
  for (const rewind of history.rewinds) {
    lines.push(
      '',
      `  Rewound to turn ${rewind.toTurn} (${rewind.mode}) at ${localTime(rewind.at)}${rewind.restoredDirectories.length > 0 ? `: restored ${rewind.restoredDirectories.join(', ')}` : ''}`,
    );
  }
  return lines;
}

/** `vigil sessions show ID`: one session's canonical history. */
export const sessionsShowCommand: CliCommand = {
  name: 'show',
  summary: "Show a session's turns, messages and tool calls with their decisions and checkpoints.",
  usage: 'vigil sessions show SESSION [--json]',
  help: [
    'Rewound turns stay in the history, marked.',
    '',
    'Options:',
    '  --json  print the whole history as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'SESSION' },
  async run(args, io) {
    const history = await withSessionLogs(io, (registry) => registry.history(args.positionals[0] ?? ''));
    if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(history));
    else for (const line of historyText(history)) writeLine(io.stdout, line);
    return exitCodes.ok;
  },
};
