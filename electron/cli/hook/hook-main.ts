import { hookHelp, hookUsage, parseHookArgs } from './hook-args';
import { runHook } from './run-hook';

/**
 * `vigil hook …` as its own short path from the executable (it runs on every tool call of an
 * agent): only the relay client and the event formats load, unless no core runs. The process ends
 * as soon as the answer is out — whatever a one-shot core past its deadline was still doing.
 */
export async function runHookProcess(argv: readonly string[]): Promise<void> {
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
  const code = await runHook(parsed.options, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    mayStartCore: true,
  });
  process.exit(code);
}
