import path from 'node:path';
import { isPathInside } from '../lib';
import type { Invocation } from './command-unwrap';
import type { ParsedShell, ShellWord } from './shell';

/**
 * Code a command takes from files rather than from its programs' names: a program named by a path
 * (`./grep`, `bin/cat`), a changed program search path (`PATH=.:$PATH ls`), libraries loaded into
 * every program (`LD_PRELOAD=./x.so ls`), shell start-up files (`BASH_ENV=./x sh -c true`). Any of
 * these may be a file the agent wrote in the workspace: the command is a possible writer, and every
 * writable root is checkpointed before it runs.
 */

/** Folders whose programs are the system's own: a program named by a path into one is what its name says. */
const systemProgramFolders: ReadonlySet<string> = new Set([
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/opt/homebrew/sbin',
  '/snap/bin',
  '/run/current-system/sw/bin',
]);
/** Windows' own program folders (`C:\Windows\System32`). */
const windowsSystemFolder = /^[a-z]:[\\/]windows([\\/](system32|syswow64))?$/iu;

/** Whether a folder, as written, is one of the system's program folders (`/usr/bin`, `/usr/bin/`). */
export function isSystemProgramFolder(folder: string): boolean {
  const trimmed = folder.length > 1 ? folder.replace(/[\\/]+$/u, '') : folder;
  return systemProgramFolders.has(trimmed) || windowsSystemFolder.test(trimmed);
}

/**
 * Why an invocation runs a program file rather than the program its name says, or undefined: its
 * program word is a path (`./grep`, `bin/cat`, `~/x/ls`, `/ws/tools/sed`) outside the system's
 * program folders.
 */
export function programFile(invocation: Invocation, platform: NodeJS.Platform = process.platform): string | undefined {
  const text = invocation.programWord.text;
  const separator = platform === 'win32' ? /[\\/]/u : /\//u;
  if (!separator.test(text) || invocation.programWord.isDynamic) return undefined;
  const cut = Math.max(text.lastIndexOf('/'), platform === 'win32' ? text.lastIndexOf('\\') : -1);
  const folder = cut === 0 ? '/' : text.slice(0, cut);
  if (isSystemProgramFolder(folder)) return undefined;
  return `"${text}" runs the file ${text}, which may be code written in the workspace, not the system's ${invocation.program}`;
}

/** Variables through which programs load code from files: libraries, shell start-up files, interpreters' start-up code, pagers. */
const codeVariables: Readonly<Record<string, string>> = {
  LD_PRELOAD: 'loads a library into every program it starts',
  LD_LIBRARY_PATH: 'makes programs load their libraries from other folders',
  LD_AUDIT: 'loads a library into every program it starts',
  DYLD_INSERT_LIBRARIES: 'loads a library into every program it starts',
  DYLD_LIBRARY_PATH: 'makes programs load their libraries from other folders',
  DYLD_FRAMEWORK_PATH: 'makes programs load their frameworks from other folders',
  BASH_ENV: 'makes every bash it starts run that file first',
  ENV: 'makes every sh it starts run that file first',
  ZDOTDIR: 'makes zsh read its start-up files from that folder',
  PROMPT_COMMAND: 'makes bash run that code',
  PS4: 'makes a tracing shell run the code in it',
  SHELLOPTS: 'changes the options of every shell it starts',
  BASHOPTS: 'changes the options of every bash it starts',
  NODE_OPTIONS: 'makes node load other code first',
  PYTHONSTARTUP: 'makes python run that file first',
  PYTHONPATH: 'makes python import modules from that folder first',
  PERL5OPT: 'gives perl options, code among them',
  PERL5LIB: 'makes perl load modules from that folder first',
  RUBYOPT: 'gives ruby options, code among them',
  RUBYLIB: 'makes ruby load libraries from that folder first',
  LESSOPEN: 'makes less run that program on every file',
  LESSCLOSE: 'makes less run that program on every file',
  MANPAGER: 'makes man run that program',
  PAGER: 'makes man, git and others run that program',
};

/** Programs that assign the variable named by their argument (`read PATH`, `printf -v PATH …`). */
const assigningPrograms = new Set(['read', 'printf', 'mapfile', 'readarray', 'getopts']);

/** Why a `PATH` value may make a plain program name run a file Vigil does not know: a folder other than the system's. */
function pathValueConcern(value: string, platform: NodeJS.Platform): string | undefined {
  const entries = value.split(platform === 'win32' ? ';' : ':');
  const unknown = entries.filter(
    (entry) => !/^(\$PATH|\$\{PATH\}|%PATH%|\$env:PATH)$/iu.test(entry) && !isSystemProgramFolder(entry),
  );
  if (unknown.length === 0) return undefined;
  const shown = unknown.map((entry) => (entry === '' ? '(empty: the current folder)' : entry)).join(', ');
  return `the command puts ${shown} on PATH, so a program name may run a file from there (code written in the workspace)`;
}

/** Why one word assigns a variable through which programs run code (`PATH=.:$PATH`, `LD_PRELOAD=x.so`), if it does. */
function assignmentConcern(word: ShellWord, platform: NodeJS.Platform): string | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)\+?=(.*)$/su.exec(word.text);
  if (match === null) return undefined;
  const [, name = '', value = ''] = match;
  const key = platform === 'win32' ? name.toUpperCase() : name;
  if (key === 'PATH') return pathValueConcern(value, platform);
  const what = codeVariables[key];
  return what === undefined ? undefined : `the command sets ${name}, which ${what}`;
}

/**
 * Why the commands of a line run code from files through their environment: an assignment, before
 * a program or alone, or as an argument (`export PATH=…`, `env LD_PRELOAD=… ls`, `declare -x …`),
 * of `PATH` with a folder other than the system's, or of a variable through which programs load
 * code (`LD_PRELOAD`, `BASH_ENV`, `ENV`, `NODE_OPTIONS`, `LESSOPEN` …); or `read PATH` and kin.
 */
export function environmentCode(parsed: ParsedShell, platform: NodeJS.Platform = process.platform): string[] {
  const reasons = new Set<string>();
  const add = (word: ShellWord): void => {
    const why = assignmentConcern(word, platform);
    if (why !== undefined) reasons.add(why);
  };
  parsed.assignments.forEach(add);
  for (const command of parsed.commands) {
    command.words.forEach(add);
    const program = command.words[0]?.text ?? '';
    if (!assigningPrograms.has(program)) continue;
    for (const word of command.words.slice(1)) {
      if (word.text === 'PATH' || codeVariables[word.text] !== undefined)
        reasons.add(`"${program} ${word.text}" sets ${word.text} to a value only known when the command runs`);
    }
  }
  return [...reasons];
}

/** Options of otherwise read-only programs that make them run another program (`rg --pre ./x`, `man -P cmd`). */
const programOptions: Readonly<Record<string, RegExp>> = {
  rg: /^--(pre|hostname-bin)(=|$)/u,
  sort: /^--compress-program(=|$)/u,
  man: /^(-P|-H|--pager(=|$)|--html(=|$))/u,
  ack: /^--pager(=|$)/u,
  hash: /^-[A-Za-z]*p/u,
};

/** Why an invocation runs a program named by one of its options (`rg --pre ./x`, `git grep -O./x`, `hash -p ./x ls`), if it does. */
export function optionProgram(invocation: Invocation): string | undefined {
  const words = invocation.args.map((arg) => arg.text);
  const pattern = programOptions[invocation.program];
  let option = pattern === undefined ? undefined : words.find((word) => pattern.test(word));
  if (invocation.program === 'git' && words.includes('grep'))
    option = words.find((word) => /^(-O|--open-files-in-pager)/u.test(word));
  if (option === undefined) return undefined;
  return `"${invocation.program} ${option}" runs a program it is given, which may be code written in the workspace`;
}

/**
 * Why the program search path commands start with (the supervisor's own `PATH`, which they inherit)
 * may lead a plain program name to a file in the workspace: a relative entry (`.`,
 * `node_modules/.bin`), an empty one (the current folder), or a folder inside a workspace root.
 */
export function inheritedPathConcern(
  searchPath: string,
  roots: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const entries = searchPath.split(platform === 'win32' ? ';' : ':');
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  const isAbsolute = (entry: string): boolean => flavour.isAbsolute(entry);
  const risky = entries.filter(
    (entry) => entry === '' || !isAbsolute(entry) || roots.some((root) => isPathInside(entry, root)),
  );
  if (risky.length === 0) return undefined;
  const shown = [...new Set(risky.map((entry) => (entry === '' ? '(empty: the current folder)' : entry)))];
  return `the PATH commands start with holds ${shown.join(', ')}, so a program name may run a file from the workspace`;
}
