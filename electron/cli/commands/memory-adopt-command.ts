import type { AdoptionStrategy } from '../../../shared/contract/memory-contract';
import { isAppError } from '../../../shared/errors';
import { describeMemoryUsage } from '../../../shared/tools/memory-usage-text';
import { exitCodes, flagOption, stringOption, UsageError, writeLine, type CliCommand } from '../cli-command';
import {
  memoryOptions,
  memoryOptionsHelp,
  numbered,
  printRefusal,
  printResult,
  targetOption,
  withMemory,
} from './memory-command-support';

const strategies: readonly AdoptionStrategy[] = ['delimiter', 'headings', 'blank-lines', 'lines'];

function strategyOption(value: string | undefined): AdoptionStrategy | undefined {
  if (value === undefined) return undefined;
  const found = strategies.find((strategy) => strategy === value);
  if (found === undefined) throw new UsageError(`--strategy takes ${strategies.join(', ')}, not "${value}"`);
  return found;
}

/** `vigil memory adopt`: proposes how to split a drifted file into entries; `--confirm` writes it. */
export const memoryAdoptCommand: CliCommand = {
  name: 'adopt',
  summary: 'Turn a drifted memory file back into entries: preview a split, then confirm it.',
  usage:
    'vigil memory adopt [--strategy delimiter|headings|blank-lines|lines] [--confirm ID] [--dir D] [--target memory|user] [--json]',
  help: [
    'Options:',
    '  --strategy S       split on § lines (delimiter), before Markdown headings (headings), on blank lines',
    '                     (blank-lines), or one entry per line (lines)',
    '                     (default: the first that fits the limit)',
    '  --confirm ID       write the previewed entries; ID is printed by the preview and names the version of',
    '                     the file it was made from, so nothing written since is overwritten unseen',
    ...memoryOptionsHelp,
    '',
    'Without --confirm nothing is written. With it, the entries are checked against the limit, a checkpoint',
    'and a backup of the file are taken, and the file is rewritten as entries.',
  ].join('\n'),
  options: { ...memoryOptions, strategy: { type: 'string' }, confirm: { type: 'string' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(args, io) {
    const target = targetOption(args);
    const isJson = flagOption(args, 'json');
    const chosen = strategyOption(stringOption(args, 'strategy'));
    const confirm = stringOption(args, 'confirm');
    if (confirm !== undefined && !/^[0-9a-f]{8,64}$/.test(confirm))
      throw new UsageError('--confirm takes the ID the preview printed (8 or more hex digits)');
    try {
      return await withMemory(args, io, async ({ service, dir }) => {
        const plan = await service.proposeAdoption(dir, target);
        const strategy = chosen ?? plan.recommended ?? 'delimiter';
        const proposal = plan.proposals.find((candidate) => candidate.strategy === strategy);
        if (proposal === undefined || plan.basis === null) {
          writeLine(io.stderr, `vigil memory adopt: ${plan.file} does not exist; there is nothing to adopt.`);
          return exitCodes.failed;
        }
        if (confirm !== undefined) {
          const basis = plan.basis.startsWith(confirm) ? plan.basis : confirm;
          printResult(io, await service.adopt(dir, target, basis, proposal.entries), isJson);
          return exitCodes.ok;
        }
        if (isJson) {
          writeLine(io.stdout, JSON.stringify({ ok: true, value: plan }));
          return exitCodes.ok;
        }
        writeLine(
          io.stdout,
          plan.drift.isDrifted
            ? `${plan.file} drifted: ${plan.drift.reasons.map((reason) => reason.message).join('; ')}.`
            : `${plan.file} is already a list of entries.`,
        );
        writeLine(
          io.stdout,
          `Split by ${strategy}: ${proposal.entries.length} entries, ${describeMemoryUsage(proposal.usage)}${proposal.fits ? '' : ' — OVER THE LIMIT: shorten the file first'}.`,
        );
        proposal.entries.forEach((entry, index) => writeLine(io.stdout, numbered(index, entry)));
        const others = plan.proposals
          .filter((candidate) => candidate.strategy !== strategy)
          .map(
            (candidate) =>
              `${candidate.strategy} (${candidate.entries.length} entries${candidate.fits ? '' : ', over the limit'})`,
          );
        writeLine(io.stdout, `Other splits: ${others.join(', ')}.`);
        if (proposal.fits)
          writeLine(
            io.stdout,
            `To write these entries: vigil memory adopt --strategy ${strategy} --confirm ${plan.basis.slice(0, 12)}${args.values['dir'] === undefined ? '' : ` --dir ${JSON.stringify(dir)}`} --target ${target}`,
          );
        return exitCodes.ok;
      });
    } catch (error) {
      if (isAppError(error)) return printRefusal(io, 'adopt', error, isJson);
      throw error;
    }
  },
};
