/**
 * The engine's wrapped command line with its two outer shells made to exec what they run instead of
 * forking it and waiting (Linux). Each is a shell whose only job is to start one program:
 *
 * - the shell Vigil runs the line with: `exec bwrap …` replaces it with bubblewrap (the engine's Linux
 *   wrap is one simple command, which it documents as composing with a prefix such as `exec`);
 * - the sandbox's first shell, which bubblewrap runs as `SHELL -c "SHELL -c '<the engine's script>'"`
 *   (the line's last word): `exec SHELL -c …` makes the script's shell the first process below
 *   bubblewrap's own, one hop fewer on the way to the command and back from its exit.
 *
 * What runs, with which mounts, environment and filter, is unchanged: the last word is decoded,
 * prefixed and quoted again as the engine quotes, and any line not of the expected shape is left as
 * it was. The engine's text this relies on is pinned to its version by engine-wrap.test.ts.
 */

/** One word of the line: where it starts and what the shell reads it as. */
interface Word {
  readonly start: number;
  readonly value: string;
}

/**
 * The words of a line quoted as the engine quotes (bare words, `'…'`, a quote inside as `'"'"'`),
 * or undefined for anything else (a backslash, `$`, a double-quoted part other than `"'"`).
 */
function wordsOf(line: string): Word[] | undefined {
  const words: Word[] = [];
  let index = 0;
  while (index < line.length) {
    const start = index;
    let value = '';
    while (index < line.length && line[index] !== ' ') {
      const char = line[index] ?? '';
      if (char === "'" || char === '"') {
        const end = line.indexOf(char, index + 1);
        if (end < 0) return undefined;
        const part = line.slice(index + 1, end);
        if (char === '"' && part !== "'") return undefined;
        value += part;
        index = end + 1;
      } else if (/[A-Za-z0-9_./:=@+,-]/u.test(char)) {
        value += char;
        index += 1;
      } else return undefined;
    }
    // Two spaces in a row, or one at the start: no word for the shell, so not a line of the engine's.
    if (index === start) return undefined;
    words.push({ start, value });
    index += 1;
  }
  return words;
}

/** A word as the engine quotes one that needs quotes. */
function quoted(value: string): string {
  return `'${value.replace(/'/gu, `'"'"'`)}'`;
}

/** `wrapped` with the sandbox's first shell exec'ing the engine's script, when the line ends `-- SHELL -c 'SHELL -c …'`. */
function sandboxShellInPlace(wrapped: string, shell: string): string {
  const words = wordsOf(wrapped);
  if (words === undefined || words.length < 4) return wrapped;
  const [separator, program, flag, script] = words.slice(-4);
  if (separator?.value !== '--' || program?.value !== shell || flag?.value !== '-c' || script === undefined)
    return wrapped;
  // Exactly `SHELL -c '…'`: where the engine passes the agent's own command here instead (no network bridge, no
  // filter), text that merely starts like it (`SHELL -c 'x'; next`) must run as it is, not be cut short by `exec`.
  const inner = wordsOf(script.value);
  if (!script.value.startsWith(`${shell} -c '`) || inner?.length !== 3 || inner[0]?.value !== shell) return wrapped;
  return `${wrapped.slice(0, script.start)}${quoted(`exec ${script.value}`)}`;
}

/** The engine's Linux line with both outer shells exec'ing in place (elsewhere, the line as it is). */
export function shellsExecInPlace(wrapped: string, shell: string): string {
  if (process.platform !== 'linux') return wrapped;
  return `exec ${sandboxShellInPlace(wrapped, shell)}`;
}

/** A program and its arguments, started without a shell. */
export interface EngineLaunch {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * How to start a line made by `shellsExecInPlace`: where it is `exec PROGRAM WORD…`, every word quoted
 * as the engine quotes (so the shell would only split it into words and exec the program by its
 * path), the program itself with those words, one exec fewer; any other line (the engine's
 * `/bin/sh -c 'exec 3<…'` for a profile passed through a file, a program not named by its path)
 * through `shell -c`, as before.
 */
export function engineLaunch(line: string, shell: string): EngineLaunch {
  const words = line.startsWith('exec ') ? wordsOf(line.slice('exec '.length)) : undefined;
  const [program, ...args] = words ?? [];
  if (program === undefined || !program.value.startsWith('/') || program.value === shell)
    return { file: shell, args: ['-c', line] };
  return { file: program.value, args: args.map((word) => word.value) };
}
