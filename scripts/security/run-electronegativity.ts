import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { combineReports, parseElectronegativityCsv, parseElectronegativitySarif, unparsedFiles, type Finding } from './electronegativity-report';

/** What one electronegativity scan found. */
export interface ElectronegativityScan {
  readonly findings: readonly Finding[];
  /** Files it skipped because it could not parse them: unscanned code, so the gate treats them as failures. */
  readonly unparsed: readonly string[];
}

function runTool(toolDir: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(toolDir, 'dist/index.js'), ...args], {
    // Its messages are localised from LANG; the gate reads the English ones.
    env: { ...process.env, LANG: 'en-US', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Scans `input` with @doyensec/electronegativity for the given Electron version. The tool always
 * exits 0 and writes its CSV header and rows with two unsynchronised writes, so a lost row would
 * look like a clean run: the scan therefore runs twice at once, writing CSV (which carries the
 * severities) and SARIF (one write; it carries which findings are review prompts), and fails
 * unless both list the same findings. A third run without a report file is the only one that
 * prints the files it could not parse (it skips them silently otherwise).
 */
export async function runElectronegativity(options: {
  readonly toolDir: string;
  readonly input: string;
  readonly electronVersion: string;
  readonly workDir: string;
}): Promise<ElectronegativityScan> {
  const csvFile = path.join(options.workDir, 'electronegativity.csv');
  const sarifFile = path.join(options.workDir, 'electronegativity.sarif');
  const common = ['-i', options.input, '-r', '-e', options.electronVersion];
  const [csvRun, sarifRun, consoleRun] = await Promise.all([
    runTool(options.toolDir, [...common, '-o', csvFile]),
    runTool(options.toolDir, [...common, '-o', sarifFile]),
    runTool(options.toolDir, common),
  ]);
  for (const run of [csvRun, sarifRun, consoleRun]) {
    if (run.code !== 0) throw new Error(`electronegativity exited with ${String(run.code)}:\n${run.output}`);
  }
  const findings = combineReports(
    parseElectronegativityCsv(await readFile(csvFile, 'utf8')),
    parseElectronegativitySarif(await readFile(sarifFile, 'utf8')),
  );
  return { findings, unparsed: unparsedFiles(consoleRun.output) };
}
