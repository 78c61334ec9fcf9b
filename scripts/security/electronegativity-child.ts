import { createRequire } from 'node:module';
import type { ElectronegativityScan } from './electronegativity-report';

/**
 * Runs one electronegativity scan through the package's programmatic entry point (its "main",
 * documented under "Programmatically" in its README) and prints the result as JSON on the last line
 * of stdout. Run as a child process by run-electronegativity.ts: the library installs a global
 * translation function and fetches over the network, which should not leak into the caller.
 * Arguments: <input directory> <electron version>.
 */
interface RawIssue {
  readonly id: string;
  readonly severity: { readonly name: string };
  readonly confidence: { readonly name: string };
  readonly file: string;
  readonly location: { readonly line: number; readonly column: number };
  readonly sample?: string;
  readonly description: string;
  readonly manualReview: boolean;
}

interface RawResult {
  readonly globalChecks: number;
  readonly atomicChecks: number;
  readonly issues: readonly RawIssue[];
  readonly errors: readonly { readonly file: string; readonly tolerable?: boolean }[];
}

type Run = (options: Readonly<Record<string, unknown>>, forCli: boolean) => Promise<RawResult>;

const [input, electronVersion] = process.argv.slice(2);
if (input === undefined || electronVersion === undefined)
  throw new Error('usage: electronegativity-child.ts <input> <electron version>');
const run = createRequire(import.meta.url)('@doyensec/electronegativity') as Run;
const result = await run(
  {
    input,
    isRelative: true,
    isVerbose: true,
    customScan: [],
    excludeFromScan: [],
    parserPlugins: [],
    // What the CLI's -e sets (the README's "electronVersion" is not what the runner reads).
    electronVersionOverride: electronVersion,
  },
  false,
);
const scan: ElectronegativityScan = {
  checksRun: result.globalChecks + result.atomicChecks,
  findings: result.issues.map((issue) => ({
    check: issue.id,
    severity: issue.severity.name as ElectronegativityScan['findings'][number]['severity'],
    confidence: issue.confidence.name,
    file: issue.file,
    location: `${issue.location.line}:${issue.location.column}`,
    sample: issue.sample ?? '',
    description: issue.description,
    isReviewPrompt: issue.manualReview,
  })),
  unparsed: result.errors.filter((error) => error.tolerable !== true).map((error) => error.file),
};
process.stdout.write(`\n${JSON.stringify(scan)}\n`);
