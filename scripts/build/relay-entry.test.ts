import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startResidentCore, type ResidentCore } from '../../electron/cli/test-support/relay-fixture';
import { childEnv } from '../../electron/test-support/run-vigil';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { relayEntryFile } from './relay-entry';
import { buildMain, repoRoot } from './test-support/main-build';

/** Reports every file of the build a process loads: ES modules by a resolve hook, CommonJS files by Module's load. */
const tracer = `data:text/javascript,${encodeURIComponent(
  [
    "import Module, { register } from 'node:module';",
    "import { pathToFileURL } from 'node:url';",
    `register(${JSON.stringify(
      `data:text/javascript,${encodeURIComponent("export async function resolve(s, c, n) { const r = await n(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }")}`,
    )});`,
    'const load = Module.prototype.load;',
    "Module.prototype.load = function (file) { process.stderr.write('LOADED ' + pathToFileURL(file).href + '\\n'); return load.call(this, file); };",
  ].join('\n'),
)}`;

interface BuiltRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The build's files it loaded, by name (`cli.cjs`, `chunks/hook-main` without the hash). */
  readonly loaded: readonly string[];
}

describe('the relay entry (cli.cjs), built for real', () => {
  let base = '';
  let outDir = '';
  let project = '';
  let env: NodeJS.ProcessEnv = {};
  let remove = async (): Promise<void> => {};

  /** `node FILE ARGS` of the build (cli.cjs or cli.js), its loads traced; not blocking, since the resident core answers from this process. */
  async function run(
    file: string,
    args: readonly string[],
    input = '',
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<BuiltRun> {
    const child = spawn(process.execPath, ['--import', tracer, path.join(outDir, file), ...args], {
      env: childEnv({ ...env, ...extraEnv }),
    });
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const [status] = (await once(child, 'close')) as [number | null];
    const result = { status, stdout, stderr };
    const loaded = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('LOADED '))
      .map((line) => fileURLToPath(line.slice('LOADED '.length)))
      .filter((file) => file.startsWith(outDir + path.sep))
      .map((file) => path.relative(outDir, file).replace(/-[\w-]{8}\.(c?js)$/, '.$1'));
    const said = result.stderr
      .split('\n')
      .filter((line) => !line.startsWith('LOADED '))
      .join('\n');
    return { status: result.status, stdout: result.stdout, stderr: said, loaded: [...new Set(loaded)].sort() };
  }

  /** What a run printed, with checkpoint ids (which differ run to run) made alike. */
  function printed(result: BuiltRun): unknown {
    const same = (text: string): string => text.replace(/\b[0-9a-f]{8}\b/g, '<id>');
    return { status: result.status, stdout: same(result.stdout), stderr: same(result.stderr) };
  }

  /**
   * `vigil checkpoints restore DIR N FILE` through cli.cjs, then through cli.js, the file damaged
   * before each, both back to the newest checkpoint as it was (each restore's pre-rollback snapshot becomes the newest).
   */
  async function restoreBoth(
    files: readonly string[],
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<readonly [BuiltRun, BuiltRun]> {
    const restore = async (file: string, number: number): Promise<BuiltRun> => {
      for (const name of files) await writeFile(path.join(project, name), `damaged by ${file}\n`);
      return run(file, ['checkpoints', 'restore', project, String(number), ...files], '', extraEnv);
    };
    const relayEntry = await restore('cli.cjs', 1);
    return [relayEntry, await restore('cli.js', 2)];
  }

  /** A PreToolUse Write as Claude Code sends it, for a new file in the project. */
  function writeEvent(name: string): string {
    return JSON.stringify({
      session_id: 'relay-entry-test',
      transcript_path: path.join(base, 'transcript.jsonl'),
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: path.join(project, name), content: 'x\n' },
      tool_use_id: name,
    });
  }

  beforeAll(async () => {
    const temp = await makeTempDir('vigil-relay-entry-');
    remove = temp.remove;
    base = temp.dir;
    outDir = path.join(base, 'main');
    buildMain(outDir);
    // As in an installed package: its manifest's module type, and its dependencies (the ES build's one-shot core needs them).
    await writeFile(path.join(base, 'package.json'), JSON.stringify({ type: 'module' }));
    await symlink(path.join(repoRoot, 'node_modules'), path.join(base, 'node_modules'));
    project = path.join(base, 'project');
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(path.join(project, 'src/a.txt'), 'one\ntwo\n');
    await mkdir(path.join(base, 'user'));
    env = { VIGIL_HOME: path.join(base, 'home'), HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'none') };
  }, 300_000);
  afterAll(() => remove());

  it('is CommonJS with a shebang, and package.json names it as the bin', async () => {
    const code = await readFile(path.join(outDir, relayEntryFile), 'utf8');
    expect(code.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(code).toContain('require("node:fs")');
    const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ vigil: `out/main/${relayEntryFile}` });
  });

  it(
    'runs a relayed checkpoint and a hook in CommonJS files alone, printing what the ES executable prints',
    { timeout: 300_000 },
    async () => {
      const resident: ResidentCore = await startResidentCore(env['VIGIL_HOME'] ?? '', childEnv(env));
      try {
        const first = await run('cli.cjs', ['checkpoint', project]);
        expect(printed(first)).toEqual({
          status: 0,
          stdout: `Checkpoint <id> of ${project}: manual checkpoint (1 file, +2/-0).\n`,
          stderr: '',
        });
        expect(first.loaded).toEqual(['chunks/relay-or-local.cjs', 'chunks/relayed-commands.cjs', 'cli.cjs']);
        for (const file of ['cli.cjs', 'cli.js']) {
          await appendFile(path.join(project, 'src/a.txt'), `by ${file}\n`);
          expect(printed(await run(file, ['checkpoint', project, '--reason', 'by hand']))).toEqual({
            status: 0,
            stdout: `Checkpoint <id> of ${project}: by hand (1 file, +1/-0).\n`,
            stderr: '',
          });
        }
        const hook = await run('cli.cjs', ['hook', 'claude-code'], writeEvent('new.txt'));
        expect(hook.loaded).toEqual(['chunks/hook-main.cjs', 'chunks/relay-or-local.cjs', 'cli.cjs']);
        expect(printed(hook)).toEqual(printed(await run('cli.js', ['hook', 'claude-code'], writeEvent('other.txt'))));
        expect(resident.calls.filter((channel) => channel === 'checkpoints:create')).toHaveLength(3);
        expect(resident.calls.filter((channel) => channel === 'hooks:event')).toHaveLength(2);
      } finally {
        await resident.stop();
      }
    },
  );

  it(
    'runs a relayed restore in CommonJS files alone (no schema library), printing and exiting as the ES executable does',
    { timeout: 300_000 },
    async () => {
      const resident: ResidentCore = await startResidentCore(env['VIGIL_HOME'] ?? '', childEnv(env));
      try {
        await writeFile(path.join(project, 'src/kept.txt'), 'kept\n');
        await run('cli.js', ['checkpoint', project, '--reason', 'restore target']);
        const [relayed, inEs] = await restoreBoth(['src/kept.txt']);
        expect(relayed.loaded).toEqual([
          'chunks/checkpoints-restore-command.cjs',
          'chunks/relay-or-local.cjs',
          'chunks/relayed-commands.cjs',
          'cli.cjs',
        ]);
        // None of the CommonJS files takes in the schema library (the restore's outcomes are sorted without it).
        const commonJs = [
          relayEntryFile,
          ...(await readdir(path.join(outDir, 'chunks'))).map((name) => `chunks/${name}`),
        ];
        for (const file of commonJs.filter((name) => name.endsWith('.cjs')))
          expect(await readFile(path.join(outDir, file), 'utf8')).not.toMatch(/require\("zod/);
        expect(inEs.loaded).toContain('cli.js');
        expect(printed(relayed)).toEqual(printed(inEs));
        expect(relayed.status).toBe(0);
        expect(relayed.stdout).toMatch(/^✅ Restored 1 file\(s\) to checkpoint [0-9a-f]{8}: restore target\./m);
        expect(await readFile(path.join(project, 'src/kept.txt'), 'utf8')).toBe('kept\n');
        // A bad N, a file in neither, a missing N, the help: the same words and exit code from both, the first from CommonJS.
        const cases = [[project, '999', 'src/kept.txt'], [project, '1', 'src/missing.txt'], [project], ['--help']];
        for (const args of cases) {
          const fromRelayEntry = await run('cli.cjs', ['checkpoints', 'restore', ...args]);
          expect(fromRelayEntry.loaded).not.toContain('cli.js');
          expect(printed(fromRelayEntry)).toEqual(printed(await run('cli.js', ['checkpoints', 'restore', ...args])));
        }
        expect(resident.calls.filter((channel) => channel === 'checkpoints:restore')).toHaveLength(6);
      } finally {
        await resident.stop();
      }
    },
  );

  it(
    'goes on in the ES build for other commands and when no core takes the call, saying the same about serve.json',
    { timeout: 300_000 },
    async () => {
      const serveJson = path.join(env['VIGIL_HOME'] ?? '', 'serve.json');
      const noCore = { VIGIL_NO_CORE: '1' };
      const version = await run('cli.cjs', ['--version']);
      const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
      expect(version.stdout).toBe(`${manifest.version}\n`);
      expect(version.loaded).toContain('cli.js');
      const serveFiles: ReadonlyArray<string | undefined> = [
        undefined,
        '{ not json',
        JSON.stringify({ pid: process.pid }),
        JSON.stringify({ pid: 2 ** 22 + 1, token: 't', url: 'http://127.0.0.1:9/' }),
        JSON.stringify({ pid: process.pid, token: 't', url: null, background: true }),
      ];
      for (const text of serveFiles) {
        if (text === undefined) await rm(serveJson, { force: true });
        else await writeFile(serveJson, text);
        // Whatever an earlier case left, checkpointed first, so both runs below take one change.
        await run('cli.js', ['checkpoint', project], '', noCore);
        await appendFile(path.join(project, 'src/a.txt'), 'more\n');
        const relayEntry = await run('cli.cjs', ['checkpoint', project], '', noCore);
        await appendFile(path.join(project, 'src/a.txt'), 'more\n');
        expect(printed(relayEntry)).toEqual(printed(await run('cli.js', ['checkpoint', project], '', noCore)));
        expect(relayEntry.status).toBe(0);
        // The one-shot core is the ES build's: in the relay entry's path (serve.json names a core) or in vigil.ts's.
        expect(relayEntry.loaded).toContain(text === undefined ? 'cli.js' : 'local-core.js');
        await writeFile(path.join(project, 'src/kept.txt'), `kept ${String(text)}\n`);
        await run('cli.js', ['checkpoint', project], '', noCore);
        const [restored, restoredInEs] = await restoreBoth(['src/kept.txt'], noCore);
        expect(restored.status).toBe(0);
        expect(printed(restored)).toEqual(printed(restoredInEs));
        expect(restored.loaded).toContain(text === undefined ? 'cli.js' : 'local-core.js');
        expect(await readFile(path.join(project, 'src/kept.txt'), 'utf8')).toBe(`kept ${String(text)}\n`);
        const hook = await run('cli.cjs', ['hook', 'claude-code'], writeEvent('in-process.txt'), noCore);
        expect(hook.loaded).toContain('local-core.js');
        expect(printed(hook)).toEqual(
          printed(await run('cli.js', ['hook', 'claude-code'], writeEvent('in-process.txt'), noCore)),
        );
      }
    },
  );
});
