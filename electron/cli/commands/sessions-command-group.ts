import type { CliCommandGroup } from '../cli-command';
import { sessionsListCommand } from './sessions-list-command';
import { sessionsShowCommand } from './sessions-show-command';

/** `vigil sessions list|show`: agent sessions as their logs record them. */
export const sessionsCommandGroup: CliCommandGroup = {
  name: 'sessions',
  summary: 'Agent sessions: list them, show one with its turns and tool calls.',
  subcommands: [sessionsListCommand, sessionsShowCommand],
};
