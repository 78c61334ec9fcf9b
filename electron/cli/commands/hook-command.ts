import { hookAgents } from '../../../shared/hooks/hook-event';
import type { CliCommand } from '../cli-command';
import { hookHelp, hookUsage, parseHookArgs } from '../hook/hook-args';

/**
 * `vigil hook AGENT`, as the command table lists it. The executable takes `vigil hook …` on a short
 * path of its own (hook-main.ts); this entry serves `--help` listings and `vigil --local hook …`.
 */
export const hookCommand: CliCommand = {
  name: 'hook',
  summary: `Answer one hook event of ${hookAgents.join(' or ')} (the agent runs it: see vigil connect … --hooks).`,
  usage: hookUsage,
  help: hookHelp,
  options: { home: { type: 'string' }, 'deadline-ms': { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'AGENT' },
  async run(args, io) {
    const argv = [
      ...args.positionals,
      ...Object.entries(args.values).flatMap(([key, value]) => (typeof value === 'string' ? [`--${key}`, value] : [])),
    ];
    const parsed = parseHookArgs(io.forceLocal === true ? [...argv, '--local'] : argv, io.env);
    if (parsed.kind !== 'run') {
      io.stderr.write(`vigil hook: ${parsed.kind === 'usage' ? parsed.problem : 'see --help'}\n`);
      return 1;
    }
    // Loaded here, not with the table: the hook's code goes with the executable's hook path (scripts/build/chunk-plan.ts).
    const { runHook } = await import('../hook/run-hook');
    return runHook(parsed.options, io);
  },
};
