import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { parseHookInput } from '../shared/hooks/parse-hook-input';
import { hookOutput } from '../shared/hooks/hook-output';
import type { HookAnswer } from '../shared/hooks/hook-event';
import type { Result } from '../shared/result';
import { shrinkHookEvent } from '../electron/cli';
import { createCore } from '../electron/core';
import { silentLogger } from '../electron/logging';
import { claudeCodeEvents } from '../electron/hooks/test-support/recorded-events';

/**
 * The rooms a hook event walks: the source files (and their folders) whose functions run while a
 * resident core answers one Claude Code PreToolUse Write (the turn's first, so it checkpoints),
 * from the parsed stdin to the printed answer. Counted with V8's precise coverage (call counts),
 * after a warm-up event, so that only the walk itself counts. `npx tsx bench/hook-walk.ts`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const home = mkdtempSync(path.join(os.tmpdir(), 'vigil-walk-home-'));
const project = mkdtempSync(path.join(os.tmpdir(), 'vigil-walk-project-'));
mkdirSync(path.join(project, 'src'));
writeFileSync(path.join(project, 'src/a.ts'), 'export const a = 1;\n');
execFileSync('git', ['init', '-q', project]);
const session = { sessionId: 'walk-session', cwd: project, transcriptPath: path.join(project, 't.jsonl') };
const core = await createCore({ home, logger: silentLogger, mode: 'one-shot', canAsk: false });

async function send(event: object): Promise<unknown> {
  const parsed = parseHookInput('claude-code', JSON.stringify(event));
  if (parsed.kind !== 'event') throw new Error(`unexpected parse: ${JSON.stringify(parsed)}`);
  const shrunk = await shrinkHookEvent(parsed.event);
  const result = (await core.router.dispatch('hooks:event', shrunk, {
    transport: 'cli',
    clientId: 'vigil-hook',
  })) as Result<HookAnswer>;
  if (!result.ok) throw new Error(result.error.message);
  return hookOutput('claude-code', shrunk.kind, result.value);
}

const input = (n: number): object => ({ file_path: path.join(project, `src/w${n}.ts`), content: 'x' });
const write = (n: number): object => claudeCodeEvents.preTool(session, 'Write', input(n), `t${n}`);
await send(claudeCodeEvents.sessionStart(session));
await send(claudeCodeEvents.prompt(session, 'warm up'));
await send(write(0));
await send(claudeCodeEvents.postTool(session, 'Write', input(0), 't0', { success: true }));
await send(claudeCodeEvents.prompt(session, 'the measured turn'));
writeFileSync(path.join(project, 'src/a.ts'), 'export const a = 2;\n');

const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await inspector.post('Profiler.takePreciseCoverage');
const answer = await send(write(1));
const { result } = await inspector.post('Profiler.takePreciseCoverage');
await inspector.post('Profiler.stopPreciseCoverage');
const files = result
  .filter((script) => script.url.startsWith('file://') && script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
  .map((script) => path.relative(root, fileURLToPath(script.url)))
  .filter((file) => !file.startsWith('..') && !file.includes('node_modules'))
  .sort();
const folders = [...new Set(files.map((file) => path.dirname(file)))].sort();
console.log(JSON.stringify(answer));
console.log(`${files.length} files in ${folders.length} folders:`);
for (const file of files) console.log(`  ${file}`);
await core.dispose();
