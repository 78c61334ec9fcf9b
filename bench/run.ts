import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderSection, type BenchArea } from './harness';

/**
 * `npm run bench [-- AREA ...] [--quick]` (or `-- --docs`, which only rebuilds docs/benchmarks.md): runs every `bench/<area>.bench.ts` (or the named ones),
 * writes each area's Markdown to docs/benchmarks/<area>.md, and rebuilds docs/benchmarks.md from
 * all of them, so one area can be re-measured without losing the others.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const sectionsDir = path.join(root, 'docs/benchmarks');

async function main(): Promise<void> {
  // "No core" rows measure the in-process path: no command starts a background core unless a row asks for one.
  process.env['VIGIL_NO_CORE'] ??= '1';
  const args = process.argv.slice(2);
  const isQuick = args.includes('--quick');
  // `--docs`: measure nothing; rebuild docs/benchmarks.md from the sections kept in docs/benchmarks/.
  const isDocsOnly = args.includes('--docs');
  const wanted = args.filter((arg) => !arg.startsWith('--'));
  const areas = (await readdir(here))
    .filter((name) => name.endsWith('.bench.ts'))
    .map((name) => name.replace(/\.bench\.ts$/, ''))
    .sort();
  const unknown = wanted.filter((name) => !areas.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown bench area(s): ${unknown.join(', ')}. Known: ${areas.join(', ')}\n`);
    process.exitCode = 2;
    return;
  }
  await mkdir(sectionsDir, { recursive: true });
  for (const area of isDocsOnly ? [] : wanted.length > 0 ? wanted : areas) {
    process.stdout.write(`\n▶ ${area}\n`);
    const module = (await import(pathToFileURL(path.join(here, `${area}.bench.ts`)).href)) as { run: BenchArea };
    const section = await module.run({ isQuick, log: (line) => process.stdout.write(`  ${line}\n`) });
    const markdown = renderSection(section);
    process.stdout.write(`${markdown}\n`);
    if (!isQuick) await writeFile(path.join(sectionsDir, `${area}.md`), markdown);
  }
  if (isQuick) return;
  const files = (await readdir(sectionsDir)).filter((name) => name.endsWith('.md')).sort();
  const sections = await Promise.all(files.map((name) => readFile(path.join(sectionsDir, name), 'utf8')));
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const header = [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (medians over several runs; ratios against a baseline measured in the same run).',
    'Each area is re-measured on its own with `npm run bench -- AREA`; its section is kept in docs/benchmarks/AREA.md.',
    `Last machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    '',
  ].join('\n');
  await writeFile(path.join(root, 'docs/benchmarks.md'), `${header}\n${sections.join('\n')}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
