import type { HistoryEntry, SessionHistory } from '../../../shared/contract/sessions-contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { describeCall } from '../../sessions';
import { changesWords } from '../../../shared/sessions/turn-changes';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import { sessionsOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore } from '../relay/relay-or-local';
import { localTime } from './checkpoint-command';
import { showTurn, turnChangesOf } from './sessions-show-turn';

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
    const changes = turnChangesOf(turn);
    if (changes.counts.files > 0) lines.push(`    changed: ${changesWords(changes)}`);
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
  usage: 'vigil sessions show SESSION [--turn N [--diff]] [--json]',
  help: [
    'Rewound turns stay in the history, marked. Each turn ends with its changeset: the files its',
    "calls changed and their lines added and removed (this session's changes only), the numbers the",
    "timeline's rows show.",
    '',
    'Options:',
    "  --turn N  show only turn N's changeset: each file it created (A), changed (M) or deleted (D)",
    '  --diff    with --turn: the diff of those files, from the checkpoint before the turn to the one',
    '            after it (or the folder now)',
    '  --json    print the whole history as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' }, turn: { type: 'string' }, diff: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: 'SESSION' },
  async run(args, io) {
    const turnText = stringOption(args, 'turn');
    if (turnText !== undefined && !/^[1-9]\d*$/u.test(turnText))
      throw new UsageError(`--turn takes a turn number (1 or more), not "${turnText}"`);
    if (flagOption(args, 'diff') && turnText === undefined)
      throw new UsageError("--diff shows one turn's diff: add --turn N");
    return withCore(cliRoute(io), async (caller) => {
      const history = await sessionsOf(caller).history(args.positionals[0] ?? '');
      if (turnText !== undefined) return showTurn(io, caller, history, Number(turnText), flagOption(args, 'diff'));
      if (flagOption(args, 'json')) writeLine(io.stdout, JSON.stringify(history));
      else for (const line of historyText(history)) writeLine(io.stdout, line);
      return exitCodes.ok;
    });
  },
};
