import { invocationEffects } from './command-effects';
import { shells, type Invocation } from './command-unwrap';
import { directoryBuiltins } from './directory-change';

/**
 * Programs that only read files and write to their standard output, whatever their arguments
 * (redirections are judged apart): a command made only of these, and of the programs whose file
 * effects Vigil reads from the line, changes nothing it does not name.
 */
const readOnlyPrograms = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'ls',
  'dir',
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  '[[',
  'which',
  'type',
  'whoami',
  'id',
  'groups',
  'date',
  'uname',
  'hostname',
  'printenv',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'diff',
  'cmp',
  'comm',
  'cut',
  'tr',
  'nl',
  'od',
  'hexdump',
  'file',
  'stat',
  'du',
  'df',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'seq',
  'sleep',
  'jq',
  'tree',
  'column',
  'fold',
  'fmt',
  'paste',
  'rev',
  'tac',
  'expand',
  'unexpand',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'base64',
  'strings',
  'nproc',
  'free',
  'uptime',
  'ps',
  'exit',
  'return',
  'wait',
  'shift',
  'read',
  'unset',
  'local',
  'export',
  'declare',
  'typeset',
  'readonly',
  'set',
  'shopt',
  'getopts',
  'hash',
  'umask',
  'ulimit',
  'times',
  'jobs',
  'history',
  'lsof',
  'env',
  'time',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'ionice',
  'command',
  'builtin',
  'exec',
  'xargs',
  'sudo',
  'doas',
  'setsid',
  'chronic',
  'unbuffer',
  'caffeinate',
  'chrt',
  'taskset',
  'eval',
  'yes',
  'tput',
  'clear',
  'locale',
  'getconf',
  'lscpu',
  'lsblk',
  'whereis',
  'apropos',
  'man',
  'info',
  'help',
  'tty',
  'logname',
  'users',
  'who',
  'w',
]);

/** Git subcommands that change nothing on disk (given no option that writes a file). */
const readOnlyGit = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'annotate',
  'grep',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'rev-parse',
  'describe',
  'shortlog',
  'cat-file',
  'rev-list',
  'merge-base',
  'name-rev',
  'for-each-ref',
  'show-ref',
  'count-objects',
  'check-ignore',
  'check-attr',
  'var',
  'whatchanged',
  'help',
  'version',
  'diff-tree',
  'diff-index',
  'diff-files',
  'range-diff',
  'cherry',
]);

/** Git's global options that take a separate value (`git -C dir status`). */
const gitValueOptions = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** The subcommand of a git invocation and the words after it. */
export function gitSubcommand(invocation: Invocation): { readonly name?: string; readonly rest: readonly string[] } {
  const words = invocation.args.map((arg) => arg.text);
  let index = 0;
  while (index < words.length && (words[index]?.startsWith('-') ?? false))
    index += gitValueOptions.has(words[index] ?? '') ? 2 : 1;
  const name = words[index];
  return { name, rest: words.slice(index + 1) };
}

/** Whether a git invocation only reads: a read-only subcommand, or a listing form of branch/tag/remote/stash/config/worktree/reflog. */
function isReadOnlyGit(invocation: Invocation): boolean {
  const { name, rest } = gitSubcommand(invocation);
  if (name === undefined || name === '--version' || name === '--help') return true;
  if (rest.some((word) => word === '--output' || word.startsWith('--output=') || word === '-o')) return false;
  if (readOnlyGit.has(name)) return true;
  const operands = rest.filter((word) => !word.startsWith('-'));
  switch (name) {
    case 'branch':
    case 'tag':
      return (
        operands.length === 0 &&
        !rest.some((word) =>
          /^-[a-zA-Z]*[dDmMcCf]|^--(delete|move|copy|force|set-upstream|unset-upstream|edit-description)/u.test(word),
        )
      );
    case 'remote':
      return operands.length === 0 || operands[0] === 'show' || operands[0] === 'get-url';
    case 'stash':
    case 'worktree':
      return operands[0] === 'list' || (name === 'stash' && operands[0] === 'show');
    case 'reflog':
      return operands.length === 0 || operands[0] === 'show';
    case 'config':
      return (
        rest.some((word) => /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--show-scope)$/u.test(word)) ||
        (operands.length === 1 && !rest.some((word) => /^--(unset|add|replace|rename|remove|edit)/u.test(word)))
      );
    default:
      return false;
  }
}

/** Whether a `sed` run only prints: not in place, no script file, no `w`/`W`/`e` command in its script. */
function isReadOnlySed(invocation: Invocation): boolean {
  const words = invocation.args.map((arg) => arg.text);
  if (words.some((word) => /^-[A-Za-z]*i|^--in-place|^-f$|^--file/u.test(word))) return false;
  return !words.some((word) => /(^|[;{}\n/])\s*[0-9$,/]*\s*[wWe]\s|\/[gpIiMm0-9]*[we](\s|$|;)/u.test(word));
}

/** Whether a program's arguments make it write a file it names (`sort -o f`, `curl -o f`, `find -fprint f`). */
function writesThroughOption(program: string, words: readonly string[]): boolean {
  switch (program) {
    case 'sort':
    case 'shuf':
      return words.some((word) => /^-[A-Za-z]*o|^--output/u.test(word));
    case 'uniq':
      return words.filter((word) => !word.startsWith('-')).length > 1;
    case 'curl':
      return words.some((word) =>
        /^-[A-Za-z]*[oODcK]|^--(output|remote-name|dump-header|cookie-jar|trace|config|create-dirs|etag-save|hsts|alt-svc|libcurl|stderr)/u.test(
          word,
        ),
      );
    case 'find':
      return words.some((word) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/u.test(word));
    default:
      return false;
  }
}

/**
 * Whether Vigil can tell everything an invocation may change from the command line: it only reads,
 * it is a wrapper or shell whose command Vigil follows, it changes the directory, or it is a
 * program whose file effects Vigil reads from its arguments (`rm`, `mv`, `cp`, `sed -i`, `tee` …).
 * Any other program (`npm`, `make`, `python3 script.py`, `git commit`, `curl -o f`, `ex`) may
 * change anything it can reach: its command checkpoints every writable root first.
 */
export function isUnderstood(invocation: Invocation): boolean {
  const { program, args } = invocation;
  const words = args.map((arg) => arg.text);
  if (directoryBuiltins.has(program)) return true;
  if (program === 'git') return isReadOnlyGit(invocation) || invocationEffects(invocation).length > 0;
  if (program === 'sed') return isReadOnlySed(invocation) || invocationEffects(invocation).length > 0;
  if (['awk', 'gawk', 'mawk', 'nawk'].includes(program))
    return !words.some((word) => word === '-i' || word.startsWith('--include') || word === '-f');
  if (shells.has(program))
    return words.some((word) => /^-[A-Za-z]*c/u.test(word)) || words.every((word) => word.startsWith('-'));
  if (['sort', 'shuf', 'uniq', 'curl', 'find'].includes(program)) return !writesThroughOption(program, words);
  if (readOnlyPrograms.has(program)) return true;
  return invocationEffects(invocation).length > 0 || knownWriters.has(program);
}

/** Programs whose effects `invocationEffects` reads, even when a particular call names no target. */
const knownWriters = new Set([
  'rm',
  'unlink',
  'rmdir',
  'shred',
  'srm',
  'truncate',
  'mv',
  'cp',
  'install',
  'ln',
  'touch',
  'mkdir',
  'tee',
  'dd',
]);
