import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One file-system call that changes what a crash may leave, with its paths resolved (absolute). */
export type TracedCall =
  | {
      readonly kind: 'create' | 'open';
      readonly path: string;
      readonly fd: number;
      readonly truncate: boolean;
      readonly append: boolean;
    }
  | {
      readonly kind: 'write';
      readonly path: string;
      readonly fd: number;
      readonly offset?: number;
      readonly data: Buffer;
    }
  | { readonly kind: 'truncate'; readonly path: string; readonly size: number }
  | { readonly kind: 'seek'; readonly path: string; readonly fd: number; readonly offset: number }
  | { readonly kind: 'mkdir' | 'rmdir' | 'unlink'; readonly path: string }
  | { readonly kind: 'rename' | 'link'; readonly from: string; readonly path: string }
  | { readonly kind: 'symlink'; readonly target: string; readonly path: string }
  | { readonly kind: 'fsync'; readonly path: string }
  | { readonly kind: 'stdout'; readonly text: string };

/** The system calls traced: everything that creates, writes, moves, removes or makes durable. */
const traced = [
  'open',
  'openat',
  'creat',
  'write',
  'pwrite64',
  'writev',
  'pwritev',
  'pwritev2',
  'lseek',
  'ftruncate',
  'truncate',
  'rename',
  'renameat',
  'renameat2',
  'unlink',
  'unlinkat',
  'mkdir',
  'mkdirat',
  'rmdir',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'fsync',
  'fdatasync',
  'sync_file_range',
  'sync',
  'syncfs',
];

/** Whether strace can run here (it is a Linux tool, and may be missing or blocked by ptrace rules). */
export function hasStrace(): boolean {
  const probe = spawnSync('strace', ['-f', '-qq', '-e', 'trace=none', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** Runs `args` under `strace -f` and resolves to the trace file's text once the program exits. */
export function traceRun(args: readonly string[], traceFile: string, env: NodeJS.ProcessEnv): Promise<string> {
  const strace = ['-f', '-qq', '-y', '-xx', '-s', '16777216', '-e', `trace=${traced.join(',')}`, '-o', traceFile];
  return new Promise((resolve, reject) => {
    const proc = spawn('strace', [...strace, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.stdout.resume();
    proc.on('exit', (code) => {
      if (code === 0) resolve(readFileSync(traceFile, 'utf8'));
      else reject(new Error(`the traced run failed (${String(code)}): ${err}`));
    });
  });
}

/** Joins the `<unfinished ...>` and `<... resumed>` halves of calls interleaved by threads (each takes the place it finished at). */
function joinLines(text: string): string[] {
  const pending = new Map<string, string>();
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(raw);
    if (match === null) continue;
    const [, pid = '', rest = ''] = match;
    if (rest.endsWith('<unfinished ...>')) {
      pending.set(pid, rest.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    if (resumed !== null) {
      lines.push(`${pending.get(pid) ?? ''}${resumed[1] ?? ''}`);
      pending.delete(pid);
    } else lines.push(rest);
  }
  return lines;
}

/** Decodes a C string as strace -xx prints it ("\x41\x42"). */
function unescape(literal: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < literal.length; index += 1) {
    if (literal[index] === '\\' && literal[index + 1] === 'x') {
      bytes.push(parseInt(literal.slice(index + 2, index + 4), 16));
      index += 3;
    } else bytes.push(literal.charCodeAt(index));
  }
  return Buffer.from(bytes);
}

/** Splits a call's arguments at top-level commas (strings, brackets and braces kept whole). */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let isInString = false;
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (isInString) {
      current += char;
      if (char === '\\') current += text[(index += 1)] ?? '';
      else if (char === '"') isInString = false;
      continue;
    }
    if (char === '"') isInString = true;
    if (char === '[' || char === '{' || char === '<') depth += 1;
    if (char === ']' || char === '}' || char === '>') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** What `-y` says a descriptor argument names: `23</a/b>` → [23, '/a/b']. */
function descriptor(argument: string): { fd: number; path: string } | undefined {
  const match = /^(-?\d+|AT_FDCWD)<(.*)>$/.exec(argument);
  if (match === null) return undefined;
  return { fd: match[1] === 'AT_FDCWD' ? -100 : Number(match[1]), path: unescape(match[2] ?? '').toString('utf8') };
}

function stringArgument(argument: string | undefined): string {
  const match = /^"(.*)"(\.\.\.)?$/s.exec(argument ?? '');
  return match === null ? '' : unescape(match[1] ?? '').toString('utf8');
}

/** Resolves a path argument against its directory descriptor, and `/proc/self/fd/N/...` against descriptor N. */
function resolvePath(name: string, base: string | undefined, fds: ReadonlyMap<number, string>): string {
  const proc = /^\/proc\/(?:self|\d+)\/fd\/(\d+)(\/.*)?$/.exec(name);
  if (proc !== null) return path.join(fds.get(Number(proc[1])) ?? `/unknown-fd-${proc[1] ?? ''}`, proc[2] ?? '');
  return path.isAbsolute(name) ? path.normalize(name) : path.join(base ?? '/', name);
}

/** The calls of a trace, in the order they finished, those that failed dropped. */
export function parseTrace(text: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const fds = new Map<number, string>();
  for (const line of joinLines(text)) {
    const match = /^(\w+)\((.*)\)\s+=\s+(-?\d+)(<[^>]*>)?/s.exec(line);
    if (match === null) continue;
    const [, name = '', argumentText = '', resultText = '', resultPath] = match;
    const result = Number(resultText);
    if (result < 0) continue;
    const args = splitArguments(argumentText);
    for (const argument of args) {
      const named = descriptor(argument);
      if (named !== undefined && named.fd >= 0) fds.set(named.fd, named.path);
    }
    const call = toCall(name, args, result, resultPath, fds);
    if (call !== undefined) calls.push(call);
  }
  return calls;
}

/** The path named by argument `pathIndex`, relative to the descriptor at `dirIndex` (if any). */
function pathAt(
  args: readonly string[],
  pathIndex: number,
  dirIndex: number | undefined,
  fds: Map<number, string>,
): string {
  const base = dirIndex === undefined ? process.cwd() : descriptor(args[dirIndex] ?? '')?.path;
  return resolvePath(stringArgument(args[pathIndex]), base, fds);
}

function writeData(args: readonly string[], isVector: boolean, result: number): Buffer {
  if (!isVector) return unescape(/^"(.*)"/s.exec(args[1] ?? '')?.[1] ?? '').subarray(0, result);
  const pieces = [...(args[1] ?? '').matchAll(/iov_base="((?:[^"\\]|\\.)*)"/g)].map((piece) =>
    unescape(piece[1] ?? ''),
  );
  return Buffer.concat(pieces).subarray(0, result);
}

function toCall(
  name: string,
  args: readonly string[],
  result: number,
  resultPath: string | undefined,
  fds: Map<number, string>,
): TracedCall | undefined {
  const file = descriptor(args[0] ?? '');
  switch (name) {
    case 'open':
    case 'openat':
    case 'creat': {
      const opened = resultPath === undefined ? '' : unescape(resultPath.slice(1, -1)).toString('utf8');
      fds.set(result, opened);
      const flags = name === 'creat' ? 'O_CREAT|O_TRUNC' : (args[name === 'open' ? 1 : 2] ?? '');
      const opening = {
        path: opened,
        fd: result,
        truncate: flags.includes('O_TRUNC'),
        append: flags.includes('O_APPEND'),
      };
      if (flags.includes('O_CREAT')) return { kind: 'create', ...opening };
      return flags.includes('O_WRONLY') || flags.includes('O_RDWR') ? { kind: 'open', ...opening } : undefined;
    }
    case 'write':
    case 'writev':
      if (file === undefined) return undefined;
      if (file.fd === 1) return { kind: 'stdout', text: writeData(args, name === 'writev', result).toString('utf8') };
      return file.path.startsWith('/')
        ? { kind: 'write', path: file.path, fd: file.fd, data: writeData(args, name === 'writev', result) }
        : undefined;
    case 'pwrite64':
    case 'pwritev':
    case 'pwritev2': {
      if (file === undefined || !file.path.startsWith('/')) return undefined;
      const offset = Number(args[name === 'pwrite64' ? 3 : 3]);
      return {
        kind: 'write',
        path: file.path,
        fd: file.fd,
        offset,
        data: writeData(args, name !== 'pwrite64', result),
      };
    }
    case 'lseek':
      return file === undefined ? undefined : { kind: 'seek', path: file.path, fd: file.fd, offset: result };
    case 'ftruncate':
      return file === undefined ? undefined : { kind: 'truncate', path: file.path, size: Number(args[1]) };
    case 'truncate':
      return { kind: 'truncate', path: pathAt(args, 0, undefined, fds), size: Number(args[1]) };
    case 'mkdir':
    case 'rmdir':
    case 'unlink':
      return { kind: name, path: pathAt(args, 0, undefined, fds) };
    case 'mkdirat':
      return { kind: 'mkdir', path: pathAt(args, 1, 0, fds) };
    case 'unlinkat':
      return { kind: (args[2] ?? '').includes('AT_REMOVEDIR') ? 'rmdir' : 'unlink', path: pathAt(args, 1, 0, fds) };
    case 'rename':
    case 'link':
      return { kind: name, from: pathAt(args, 0, undefined, fds), path: pathAt(args, 1, undefined, fds) };
    case 'renameat':
    case 'renameat2':
    case 'linkat':
      return {
        kind: name === 'linkat' ? 'link' : 'rename',
        from: pathAt(args, 1, 0, fds),
        path: pathAt(args, 3, 2, fds),
      };
    case 'symlink':
      return { kind: 'symlink', target: stringArgument(args[0]), path: pathAt(args, 1, undefined, fds) };
    case 'symlinkat':
      return { kind: 'symlink', target: stringArgument(args[0]), path: pathAt(args, 2, 1, fds) };
    case 'fsync':
    case 'fdatasync':
      return file === undefined ? undefined : { kind: 'fsync', path: file.path };
    default:
      return undefined;
  }
}
