import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './define-tool';
import { textField } from './text-field';

/** How long a command may run when `timeout_ms` is not given. */
export const defaultTerminalTimeoutMs = 120_000;
/** The longest `timeout_ms` accepted. */
export const maxTerminalTimeoutMs = 30 * 60_000;
/** Bytes of stdout and of stderr kept per call; the middle of longer output is dropped and said so. */
export const terminalOutputCapBytes = 64 * 1024;

/** `terminal`: run a shell command in the session's workspace. */
export const terminalTool = defineTool({
  name: 'terminal',
  summary: 'Run a shell command in the workspace and return its output and exit code.',
  description: [
    "Runs `command` with the platform's shell (`/bin/sh -c` on Linux and macOS, `cmd.exe /d /s /c` on Windows) in `cwd` (default: the session's working directory; it must be inside a workspace root). Standard input is empty.",
    `The command is stopped, with every process it started, after \`timeout_ms\` (default ${defaultTerminalTimeoutMs / 1000} s); the result then says \`timed_out\`.`,
    `stdout and stderr are returned separately, each up to ${terminalOutputCapBytes / 1024} KiB: longer output keeps its beginning and end, and the result says how many bytes were dropped.`,
    'Commands that delete, overwrite or move files (rm, mv, cp onto a file, > redirects, sed -i, git reset/checkout/clean …) are checkpointed first, so they can be undone. Some commands wait for a human to approve them; a few (rm -rf /, mkfs, shutdown …) are always refused.',
    '`command` is required and may not be empty: a call without it is refused and runs nothing.',
  ].join('\n'),
  input: lazySchema(() =>
    z.strictObject({
      command: textField('The shell command line to run, as you would type it in a terminal.').min(1, {
        message: 'is empty; give the command to run',
      }),
      cwd: z
        .string()
        .min(1, { message: "is empty; leave it out to use the session's working directory" })
        .optional()
        .describe(
          "The folder to run in: relative to the session's working directory, or absolute. It must be inside a workspace root.",
        ),
      timeout_ms: z
        .int()
        .min(1, { message: 'must be 1 or more' })
        .max(maxTerminalTimeoutMs, { message: `must be at most ${maxTerminalTimeoutMs} (30 minutes)` })
        .optional()
        .describe(`Stop the command after this many milliseconds (default ${defaultTerminalTimeoutMs}).`),
    }),
  ),
  output: lazySchema(() =>
    z.object({
      exit_code: z
        .int()
        .nullable()
        .describe('The exit code; null when the command was stopped by a signal or the timeout.'),
      signal: z.string().nullable().describe('The signal that stopped it (SIGKILL after a timeout), or null.'),
      timed_out: z.boolean().describe('Whether the timeout stopped it.'),
      stdout: z.string().describe('What it printed on standard output (UTF-8; see `stdout_dropped_bytes`).'),
      stderr: z.string().describe('What it printed on standard error.'),
      stdout_dropped_bytes: z
        .int()
        .describe('Bytes of stdout left out of the middle because the output was longer than the cap.'),
      stderr_dropped_bytes: z.int().describe('Bytes of stderr left out of the middle.'),
      cwd: z.string().describe('The folder it ran in.'),
      duration_ms: z.int().describe('How long it ran, in milliseconds.'),
      sandbox_notes: z
        .array(z.string())
        .optional()
        .describe(
          'What the sandbox did about the command: a resource limit it hit, a git file it created that Vigil removed, a folder it kept read-only for the hard links it holds.',
        ),
    }),
  ),
  notRunEffect: 'No command was run.',
});
