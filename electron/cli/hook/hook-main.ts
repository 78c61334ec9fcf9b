import { vigilPaths } from '../../lib';
import type { CredentialLookup } from '../relay/serve-credential';
import { hookHelp, hookUsage, parseHookArgs } from './hook-args';
import { runHook } from './run-hook';

/**
 * `vigil hook …` as its own short path from the executable (it runs on every tool call of an
 * agent): only the relay client and the event formats load, unless no core runs. The process ends
 * as soon as the answer is out — whatever a one-shot core past its deadline was still doing.
 * `readServe`: how the executable reads serve.json (the CommonJS entry reads it at once).
 */
export async function runHookProcess(
  argv: readonly string[],
  readServe?: (file: string) => CredentialLookup,
): Promise<void> {
  const parsed = parseHookArgs(argv, process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(`Usage: ${hookUsage}\n\n${hookHelp}\n`);
    return;
  }
  if (parsed.kind === 'usage') {
    // Exit code 1, never 2: an agent reads 2 as "block this action".
    process.stderr.write(`vigil hook: ${parsed.problem}\nUsage: ${hookUsage}\n`);
    process.exitCode = 1;
    return;
  }
  if (process.stdin.isTTY) {
    process.stderr.write(
      `vigil hook: reads one hook event as JSON on stdin; the agent runs it (see "vigil connect ${parsed.options.agent} --hooks").\n`,
    );
    process.exitCode = 1;
    return;
  }
  // Read only now that the data folder is known, and not at all with --local (which never relays).
  const serveLookup =
    readServe === undefined || parsed.options.isLocal
      ? undefined
      : readServe(vigilPaths(parsed.options.home).serveInfo);
  const code = await runHook(parsed.options, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    mayStartCore: true,
    ...(serveLookup === undefined ? {} : { serveLookup }),
  });
  process.exit(code);
}
