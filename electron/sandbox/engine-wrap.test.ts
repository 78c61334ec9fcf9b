import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runScriptInFreshProcess, sandboxModuleUrl } from '../test-support/run-vigil';
import { seededRandom, testSeed } from '../test-support/seeded-random';
import { engineLaunch, shellsExecInPlace } from './engine-command-line';

/**
 * What engine-command-line.ts makes of the engine's wrapped command line: on Linux the shell that
 * runs it execs bubblewrap in place (`exec bwrap …`), and the sandbox's first shell execs the
 * engine's script, instead of each forking and waiting. That is sound only while the engine's Linux
 * wrap is one simple command whose last word is that hand-over, quoted as the engine quotes, which
 * the engine's text is pinned to here.
 */
const engineDist = path.join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist');
const isLinux = process.platform === 'linux';
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-engine-wrap-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A word for /bin/sh, single-quoted. */
const quoteForTest = (text: string): string => `'${text.replace(/'/gu, `'"'"'`)}'`;

describe('the engine wrap run in place of its shell', () => {
  it("is the engine version whose Linux wrap is one simple command ending with its script's hand-over", async () => {
    const { version } = JSON.parse(await readFile(path.join(engineDist, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const linux = await readFile(path.join(engineDist, 'sandbox/linux-sandbox-utils.js'), 'utf8');
    // On a new engine version: check that renderBwrapInvocation still returns one simple command
    // (bubblewrap, or a /bin/sh that execs it) and that wrapCommandWithSandboxLinux returns it as is.
    expect(version).toBe('0.0.83');
    expect(linux).toContain(
      'The result stays a simple command,\n * so a prefix (`exec`, `timeout 30`) or a suffix (`&& next`) still composes.',
    );
    expect(linux).toContain('const inline = quote([bwrapBinary, ...bwrapArgs]);');
    expect(linux).toContain("const viaArgsFile = quote([\n        '/bin/sh',\n        '-c',");
    expect(linux).toContain('const wrappedCommand = renderBwrapInvocation(bwrapPath ?? ');
    expect(linux).toContain('        return wrappedCommand;\n');
    // The sandbox's first shell runs the engine's script through a second shell, as the line's last word.
    expect(linux).toContain("bwrapArgs.push('--', shell, '-c');");
    expect(linux).toContain('bwrapArgs.push(sandboxCommand);');
    expect(linux).toContain('return `${shellPath} -c ${quote([innerScript])}`;');
    const quoting = await readFile(path.join(engineDist, 'utils/shell-quote.js'), 'utf8');
    expect(quoting).toContain('if (/^[A-Za-z0-9_./:@+,-][A-Za-z0-9_./:=@+,-]*$/.test(arg)) {');
    expect(quoting).toContain(`return "'" + arg.replace(/'/g, \`'"'"'\`) + "'";`);
  });

  it.runIf(isLinux)(
    'leaves a last word that only starts like the hand-over as it is (only the outer exec added)',
    () => {
      // The engine quotes `/bin/sh -c 'x'; next` this way where it passes the agent's command as the last word.
      const line = `bwrap --die-with-parent -- /bin/sh -c '/bin/sh -c '"'"'x'"'"'; next'`;
      expect(shellsExecInPlace(line, '/bin/sh')).toBe(`exec ${line}`);
      const handOver = `bwrap --die-with-parent -- /bin/sh -c '/bin/sh -c '"'"'x; next'"'"''`;
      expect(shellsExecInPlace(handOver, '/bin/sh')).toBe(
        `exec bwrap --die-with-parent -- /bin/sh -c 'exec /bin/sh -c '"'"'x; next'"'"''`,
      );
    },
  );

  it.runIf(isLinux)('replaces both outer shells, and the command still runs sandboxed, its text intact', async () => {
    const folder = path.join(dir, 'engine');
    const writable = path.join(dir, 'work');
    await Promise.all([mkdir(folder), mkdir(writable)]);
    const started = path.join(writable, 'started');
    // Text like the engine's own hand-over to its script, quotes included, must reach the command unchanged.
    const said = `-- /bin/sh -c '/bin/sh -c 'it's"`;
    const command = `printf '%s' ${quoteForTest(said)} > ${writable}/said && touch ${started} && ! touch ${dir}/outside && sleep 30`;
    const result = await runScriptInFreshProcess(
      dir,
      `
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
const runtime = await import(${JSON.stringify(sandboxModuleUrl('sandbox-runtime.ts'))});
runtime.acquireEngine();
const wrapped: string = await runtime.wrapInSandbox({
  command: ${JSON.stringify(command)},
  directory: ${JSON.stringify(folder)},
  profile: { denyRead: [], allowWrite: [${JSON.stringify(writable)}], denyWrite: [], temp: ${JSON.stringify(writable)} },
  network: { deniedDomains: [] },
});
const child = spawn('/bin/sh', ['-c', wrapped], { stdio: 'ignore' });
while (!existsSync(${JSON.stringify(started)})) await new Promise((resolve) => setTimeout(resolve, 20));
const children = (pid: number): number[] =>
  readFileSync('/proc/' + pid + '/task/' + pid + '/children', 'utf8').trim().split(' ').filter(Boolean).map(Number);
const comm = (pid: number): string => readFileSync('/proc/' + pid + '/comm', 'utf8').trim();
const program = comm(child.pid ?? 0);
// bubblewrap's own first process in the namespaces, then the sandbox's first shell.
const [init = 0] = children(child.pid ?? 0);
const [first = 0] = children(init);
const firstShell = { program: comm(first), children: children(first).length };
child.kill('SIGKILL');
await new Promise((resolve) => child.once('exit', resolve));
runtime.commandEnded();
await runtime.releaseEngine();
console.log(JSON.stringify({ program, firstShell }));
`,
    );
    // Before, the shell forked bubblewrap and waited for it (the spawned process stayed `sh`), and the sandbox's
    // first shell forked the script's shell (one child); now it is the script: two relays and apply-seccomp.
    expect(result).toMatchObject({ program: 'bwrap', firstShell: { program: 'sh' } });
    expect((result['firstShell'] as { children: number }).children).toBeGreaterThanOrEqual(2);
    await expect(readFile(path.join(writable, 'said'), 'utf8')).resolves.toBe(said);
    await expect(readFile(path.join(dir, 'outside'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the engine line started without a shell', () => {
  /** A random word: quotes, spaces, newlines, `=`, `$`, globs, non-ASCII, empty. */
  function randomWord(random: () => number): string {
    const alphabet = 'aZ0/.-=: \'"\n$*\\!é~#;'.match(/./gsu) ?? [];
    const length = Math.floor(random() * 8);
    return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)] ?? 'a').join('');
  }

  it.runIf(isLinux)(
    'splits a line quoted as the engine quotes into the words /bin/sh reads (differential)',
    async () => {
      const { quote } = (await import(pathToFileURL(path.join(engineDist, 'utils/shell-quote.js')).href)) as {
        quote: (args: readonly string[]) => string;
      };
      const random = seededRandom(testSeed(31));
      for (let round = 0; round < 40; round += 1) {
        const words = Array.from({ length: 1 + Math.floor(random() * 6) }, () => randomWord(random));
        const line = `exec ${quote(['/usr/bin/printf', '%s\\0', ...words])}`;
        const asShellReads = execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8' }).split('\0').slice(0, -1);
        expect(asShellReads).toEqual(words);
        expect(engineLaunch(line, '/bin/sh')).toEqual({ file: '/usr/bin/printf', args: ['%s\\0', ...words] });
      }
    },
  );

  it('leaves to the shell every line that is not one program named by its path with plain words', () => {
    const through = (line: string) => ({ file: '/bin/sh', args: ['-c', line] });
    const lines = [
      `exec /bin/sh -c 'exec 3<"$1" && shift && exec "$@"' srt-args /proc/1/fd/9 /usr/bin/bwrap --args 3`,
      'exec SRT_X=0 /usr/bin/bwrap --ro-bind / /',
      'exec bwrap --ro-bind / /',
      'exec /usr/bin/bwrap  --ro-bind / /',
      'exec /usr/bin/bwrap --ro-bind / /; true',
      'exec /usr/bin/bwrap $HOME',
      '/usr/bin/bwrap --ro-bind / /',
    ];
    for (const line of lines) expect(engineLaunch(line, '/bin/sh')).toEqual(through(line));
  });
});
