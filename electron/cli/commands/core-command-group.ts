import type { CliCommandGroup } from '../cli-command';
import { coreStartCommand, coreStatusCommand, coreStopCommand } from './core-control-commands';
import { coreRunCommand } from './core-run-command';

/** `vigil core status|stop|start|run`: the background core that commands start for themselves. */
export const coreCommandGroup: CliCommandGroup = {
  name: 'core',
  summary: 'The background core commands start by themselves: show it, stop it, start it.',
  subcommands: [coreStatusCommand, coreStopCommand, coreStartCommand, coreRunCommand],
};
