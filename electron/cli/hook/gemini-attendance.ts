import { readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

/** How far up the process tree the Gemini CLI process is looked for (its shell, a wrapper, npx). */
const maxAncestors = 8;

/** One process as /proc shows it: its parent, its arguments. */
interface ProcessFacts {
  readonly parent: number;
  readonly argv: readonly string[];
}

/** A process's parent and arguments from /proc (Linux); undefined where there is no /proc or no such process. */
async function processFacts(pid: number): Promise<ProcessFacts | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
    ]);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after its last ")".
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { parent, argv: cmdline.split('\0').filter((arg) => arg !== '') };
  } catch {
    return undefined;
  }
}

/** Whether one of a process's first arguments is Gemini CLI's entry point (`gemini`, `…/bundle/gemini.js`). */
function isGemini(argv: readonly string[]): boolean {
  return argv.slice(0, 4).some((arg) => !arg.includes(' ') && /^gemini(\.js)?$/u.test(path.basename(arg)));
}

/** Whether a file descriptor of a process is a terminal. */
async function isTerminal(pid: number, fd: number): Promise<boolean> {
  const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
  return /^\/dev\/(pts\/|tty)/u.test(target);
}

/** Why Gemini CLI's own rule (isHeadlessMode) makes this run headless; undefined when it is interactive. */
async function headlessBecause(pid: number, argv: readonly string[]): Promise<string | undefined> {
  if (argv.some((arg) => arg === '-p' || arg === '--prompt' || arg.startsWith('--prompt=')))
    return 'Gemini CLI runs headless (gemini -p)';
  if (argv.includes('-i') || argv.includes('--prompt-interactive')) return undefined;
  if (!(await isTerminal(pid, 0)) || !(await isTerminal(pid, 1)))
    return 'Gemini CLI runs headless (its input or output is not a terminal)';
  return undefined;
}

/**
 * Why Gemini CLI cannot ask a person about the current tool call, or undefined when it can. Its
 * hook input does not say, so this reads what Gemini CLI itself decides by: `CI` in the
 * environment it passes on, and — on Linux, through /proc — its own arguments (`-p`) and whether
 * its input and output are terminals. In a headless run a confirmation ends the run with no output,
 * so Vigil denies instead. Elsewhere, or when its process cannot be found, a person is assumed.
 */
export async function geminiUnattended(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env['GEMINI_CLI_INTEGRATION_TEST'] !== 'true' && (env['CI'] === 'true' || env['GITHUB_ACTIONS'] === 'true'))
    return 'Gemini CLI runs headless (CI is set)';
  let pid = process.ppid;
  for (let depth = 0; depth < maxAncestors && pid > 1; depth += 1) {
    const facts = await processFacts(pid);
    if (facts === undefined) return undefined;
    if (isGemini(facts.argv)) return headlessBecause(pid, facts.argv);
    pid = facts.parent;
  }
  return undefined;
}
