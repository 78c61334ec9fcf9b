import { build } from 'esbuild';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parse as shSyntaxParse } from 'sh-syntax';
import { parseShell } from '../electron/policy';
import { formatMs, formatRatio, summarize, type BenchContext, type BenchTable } from './harness';
import { alternate, exitCpuReport } from './process-sample';
import { longHeredoc, shellCorpus } from './shell-corpus';
import { isSameFacts, mvdanFacts, mvdanSyntax, oursFacts, shSyntaxCommandsWithWords } from './shell-facts';
import { root } from './vigil-process';

/** What the shell-parser comparison found: its tables and the decision they support. */
export interface ShellComparison {
  readonly tables: readonly BenchTable[];
  readonly verdicts: readonly string[];
}

type Parser = 'ours' | 'mvdan' | 'shSyntax';

const parserNames: Record<Parser, string> = {
  ours: 'Vigil’s parser (electron/policy/shell)',
  mvdan: 'mvdan-sh 0.10.1 (GopherJS)',
  shSyntax: 'sh-syntax 0.7.0 (WebAssembly)',
};

/** Parses `source` with one parser, as it would be called (sh-syntax only answers asynchronously). */
async function parseWith(parser: Parser, source: string): Promise<void> {
  if (parser === 'ours') parseShell(source);
  else if (parser === 'mvdan') mvdanSyntax().NewParser().Parse(source, 'command.sh');
  else await shSyntaxParse(source);
}

/** Median per-command time of each parser over `passes` alternating passes of `commands`. */
async function warmTimes(commands: readonly string[], passes: number): Promise<Record<Parser, number>> {
  const samples: Record<Parser, number[]> = { ours: [], mvdan: [], shSyntax: [] };
  for (const parser of Object.keys(samples) as Parser[]) await parseWith(parser, commands[0] ?? '');
  for (let pass = 0; pass < passes; pass += 1) {
    for (const parser of Object.keys(samples) as Parser[]) {
      const start = performance.now();
      for (const command of commands) await parseWith(parser, command);
      samples[parser].push((performance.now() - start) / commands.length);
    }
  }
  return {
    ours: summarize(samples.ours).median,
    mvdan: summarize(samples.mvdan).median,
    shSyntax: summarize(samples.shSyntax).median,
  };
}

/** Scripts that load one parser and parse one command, as a one-shot `vigil hook` would; ours bundled as the build bundles it. */
async function coldScripts(base: string): Promise<Record<string, string>> {
  const ours = path.join(base, 'ours-shell.mjs');
  await build({
    entryPoints: [path.join(root, 'electron/policy/shell/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: ours,
    logLevel: 'silent',
  });
  const require = createRequire(import.meta.url);
  const command = JSON.stringify('git add -A && git commit -m "x" 2>&1 | tail -5');
  const bodies: Record<string, string> = {
    empty: '',
    ours: `import { parseShell } from ${JSON.stringify(pathToFileURL(ours).href)};\nif (parseShell(${command}).commands.length !== 3) process.exitCode = 1;`,
    mvdan: `import { createRequire } from 'node:module';\nconst sh = createRequire(import.meta.url)(${JSON.stringify(require.resolve('mvdan-sh'))});\nsh.syntax.NewParser().Parse(${command}, 'c.sh');`,
    shSyntax: `import { parse } from ${JSON.stringify(pathToFileURL(require.resolve('sh-syntax')).href.replace(/index\.cjs$/, 'index.js'))};\nawait parse(${command});`,
  };
  const files: Record<string, string> = {};
  for (const [name, body] of Object.entries(bodies)) {
    files[name] = path.join(base, `shell-${name}.mjs`);
    await writeFile(files[name], `${exitCpuReport}\n${body}\n`);
  }
  return files;
}

/** Agreement of each library with ours on the facts the policy reads, over the whole corpus. */
async function agreement(
  commands: readonly string[],
): Promise<{ mvdan: number; differences: string[]; shSyntaxWords: number; statements: number }> {
  const differences: string[] = [];
  let mvdan = 0;
  let shSyntaxWords = 0;
  let statements = 0;
  for (const command of commands) {
    if (isSameFacts(oursFacts(command), mvdanFacts(command))) mvdan += 1;
    else differences.push(command.length > 60 ? `${command.slice(0, 60)}…` : command);
    const file = await shSyntaxParse(command).catch(() => undefined);
    if (file !== undefined) {
      statements += file.Stmts.length;
      shSyntaxWords += shSyntaxCommandsWithWords(file as unknown as Parameters<typeof shSyntaxCommandsWithWords>[0]);
    }
  }
  return { mvdan, differences, shSyntaxWords, statements };
}

/** Vigil's shell parser against mvdan-sh and sh-syntax: cold start, parse time, and the facts the policy needs. */
export async function compareShellParsers(context: BenchContext, base: string): Promise<ShellComparison> {
  const { agent, policy } = await shellCorpus();
  const passes = context.isQuick ? 3 : 15;
  const processRuns = context.isQuick ? 3 : 15;
  context.log(`shell parsers: ${processRuns} cold processes of each, ${passes} warm passes`);
  const cold = alternate(await coldScripts(base), processRuns);
  const agentTimes = await warmTimes(agent, passes);
  const heredocTimes = await warmTimes([longHeredoc(70)], passes);
  const facts = await agreement([...agent, ...policy, longHeredoc(70)]);
  const total = agent.length + policy.length + 1;
  const empty = cold.get('empty') ?? { wall: 0, cpu: 0 };
  const parsers = Object.keys(parserNames) as Parser[];
  const coldRow = (parser: Parser): string[] => {
    const sample = cold.get(parser) ?? { wall: 0, cpu: 0 };
    return [formatMs(sample.wall), formatMs(sample.cpu - empty.cpu)];
  };
  const tables: BenchTable[] = [
    {
      caption: `Shell parsers: one process loads the parser and parses one command (medians of ${processRuns}, alternating; Node’s own start: ${formatMs(empty.cpu)} CPU)`,
      columns: [
        'Parser',
        'Wall',
        'CPU over Node’s start',
        `Per command, warm (${agent.length} agent commands)`,
        'vs ours',
        '70 KB heredoc, warm',
        'vs ours',
      ],
      rows: parsers.map((parser) => [
        parserNames[parser],
        ...coldRow(parser),
        formatMs(agentTimes[parser]),
        formatRatio(agentTimes[parser], agentTimes.ours),
        formatMs(heredocTimes[parser]),
        formatRatio(heredocTimes[parser], heredocTimes.ours),
      ]),
    },
    {
      caption: `Shell parsers: the facts the policy reads (programs of every command, nested ones included; redirections; here-documents; refusal), ${total} command lines (${agent.length} agent commands, ${policy.length} from the policy tests, the 70 KB heredoc)`,
      columns: ['Parser', 'Agrees with ours', 'Where not'],
      rows: [
        [
          parserNames.mvdan,
          `${facts.mvdan} of ${total}`,
          facts.differences.map((text) => `\`${text.replaceAll('|', '\\|').replaceAll('\n', '⏎')}\``).join(', '),
        ],
        [
          parserNames.shSyntax,
          `${facts.shSyntaxWords} of ${facts.statements} statements carry their command`,
          'its tree reaches JavaScript as JSON; a statement’s command arrives as `{}`: no words, no substitutions',
        ],
      ],
    },
  ];
  const mvdanCold = (cold.get('mvdan')?.cpu ?? 0) - empty.cpu;
  const verdicts = [
    `Shell parser: kept. mvdan-sh agrees on the facts but costs ${formatMs(mvdanCold)} of CPU to load in every one-shot \`vigil hook\` (target 100 ms per hook) and parses ${formatRatio(agentTimes.mvdan, agentTimes.ours)} as long per command; its differences are representation an adapter would have to undo (\`export\` and \`[[\` are not calls, \`\\rm\` keeps its backslash). sh-syntax answers only asynchronously (the policy is synchronous) and its tree has no command words, so it cannot supply the facts at all.`,
  ];
  return { tables, verdicts };
}
