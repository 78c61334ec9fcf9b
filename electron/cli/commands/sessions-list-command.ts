import { sessionIdentities, sessionLabel } from '../../../shared/sessions/session-identity';
import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, flagOption, writeLine, type CliCommand } from '../cli-command';
import { ago, withSessionLogs } from './sessions-command-support';

/** `vigil sessions list`: every session of $VIGIL_HOME, open ones first. */
export const sessionsListCommand: CliCommand = {
  name: 'list',
  summary: 'List agent sessions: agent, status, turn, tool calls, last activity, workspace.',
  usage: 'vigil sessions list [--json]',
  help: [
    'Reads the session logs in $VIGIL_HOME/sessions (nothing is changed). A session that was not',
    'closed shows as disconnected: its agent can resume it. ACTIVE is its last activity. Problems in a',
    'log (a line cut short by a crash) are listed under the session.',
    '',
    'Options:',
    '  --json  print { sessions: [...] } as one JSON document',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const sessions = await withSessionLogs(io, (registry) => registry.list());
    if (flagOption(args, 'json')) {
      writeLine(io.stdout, JSON.stringify({ sessions }));
      return exitCodes.ok;
    }
    if (sessions.length === 0) {
      writeLine(
        io.stdout,
        'No sessions yet. Agents open one when they connect (see the README: "Connecting an agent").',
      );
      return exitCodes.ok;
    }
    // The same numbers as the UI's cards (`claude-code #2`); the palette size does not matter here.
    const identities = sessionIdentities(sessions, 8);
    const rows = sessions.map((session) =>
      [
        session.id,
        sessionLabel(session.agent, identities.get(session.id)),
        session.status,
        String(session.currentTurn),
        String(session.toolCallCount),
        ago(session.lastActiveAt),
        session.roots.join(', ') || '(no workspace)',
      ].map((cell) => escapeControls(cell)),
    );
    const header = ['SESSION', 'AGENT', 'STATUS', 'TURN', 'CALLS', 'ACTIVE', 'WORKSPACE'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
    );
    const line = (cells: readonly string[]): string =>
      cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
    writeLine(io.stdout, line(header));
    sessions.forEach((session, index) => {
      writeLine(io.stdout, line(rows[index] ?? []));
      for (const warning of session.warnings) writeLine(io.stdout, `  ! ${warning}`);
    });
    writeLine(io.stdout);
    writeLine(io.stdout, '  vigil sessions show <SESSION>   its turns, messages and tool calls');
    return exitCodes.ok;
  },
};
