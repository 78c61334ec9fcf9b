import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanSchema, type ElectronegativityScan } from './electronegativity-report';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'electronegativity-child.ts');

/**
 * Scans `input` with @doyensec/electronegativity for the given Electron version, through its
 * programmatic API in a child process, and returns the structured result. (Its CLI always exits 0,
 * writes its CSV header and rows with two unsynchronised writes, which under load corrupts or
 * empties the report, and reports unparsable files only on the console; the API has none of that.)
 * Throws when the scan fails or reports nothing it could have checked.
 */
export async function runElectronegativity(options: {
  readonly input: string;
  readonly electronVersion: string;
}): Promise<ElectronegativityScan> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, options.input, options.electronVersion], {
    // Its messages are localised from LANG; keep them in English.
    env: { ...process.env, LANG: 'en-US', NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  process_.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  process_.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    process_.once('error', reject);
    process_.once('close', resolve);
  });
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !lastLine.startsWith('{'))
    throw new Error(`electronegativity failed (exit ${String(code)}):\n${stdout}${stderr}`);
  const scan = scanSchema.parse(JSON.parse(lastLine));
  if (scan.checksRun === 0) throw new Error('electronegativity ran no checks');
  return scan;
}
