import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFinding } from './security/electronegativity-report';
import { gateFindings, reviewedFindings } from './security/reviewed-findings';
import { runElectronegativity } from './security/run-electronegativity';
import { stageScanInput } from './security/stage-scan-input';

/**
 * `npm run test:security`: runs @doyensec/electronegativity over the code Vigil ships, for the
 * Electron version actually installed, and fails on any high or medium finding (except review
 * prompts with a recorded review: scripts/security/reviewed-findings.ts), on any file it could not
 * parse, and when it cannot run (its CLI always exits 0, so the scan goes through its API). Offline it waits
 * ~10 s for Electron's release list before giving up on that one check; the others run locally.
 * `--skip-build` scans the existing out/renderer/index.html as it is.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8'));
}

const pinned = (readJson('package.json') as { devDependencies: Record<string, string> }).devDependencies['electron'];
const installed = (readJson('node_modules/electron/package.json') as { version: string }).version;
if (pinned !== installed) {
  process.stderr.write(
    `check-electronegativity: package.json pins electron "${String(pinned)}" but ${installed} is installed; run npm install.\n`,
  );
  process.exit(1);
}

if (!process.argv.includes('--skip-build')) {
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    { cwd: root, encoding: 'utf8' },
  );
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}\ncheck-electronegativity: the build failed.\n`);
    process.exit(1);
  }
}

const work = mkdtempSync(path.join(os.tmpdir(), 'vigil-electronegativity-'));
try {
  const input = path.join(work, 'app');
  const staged = stageScanInput(root, input);
  const scan = await runElectronegativity({ input, electronVersion: installed });
  const gate = gateFindings(scan.findings, reviewedFindings);
  process.stdout.write(
    `electronegativity (Electron ${installed}, ${scan.checksRun} checks): ${staged.length} files scanned, ${scan.findings.length} findings: ` +
      `${gate.failures.length} failing, ${gate.reviewed.length} reviewed, ${gate.notes.length} low.\n`,
  );
  for (const { finding, review } of gate.reviewed)
    process.stdout.write(`  reviewed: ${formatFinding(finding)}\n      ${review.conclusion}\n`);
  for (const finding of gate.notes) process.stdout.write(`  note: ${formatFinding(finding)}\n`);
  const failures = [
    ...gate.failures.map((finding) => formatFinding(finding)),
    ...gate.staleReviews.map(
      (review) =>
        `the recorded review of ${review.check} at ${review.file} ("${review.sample}") matches no finding any more; update scripts/security/reviewed-findings.ts`,
    ),
    ...scan.unparsed.map(
      (file) => `could not parse ${path.isAbsolute(file) ? path.relative(input, file) : file}, so it was not checked`,
    ),
  ];
  if (failures.length > 0) {
    process.stderr.write(
      `check-electronegativity: failed (see docs/security.md):\n${failures.map((line) => `  - ${line}`).join('\n')}\n`,
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
