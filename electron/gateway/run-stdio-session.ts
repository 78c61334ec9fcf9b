import type { StdioEnd, StdioMessageTransport } from './stdio-message-transport';

/** How long ending a stdio session may take before the process reports it and exits anyway (stdin's end ends it within 2 s). */
export const stdioShutdownBudgetMs = 1_500;

/** What a stdio session runs. */
export interface StdioSessionOptions {
  readonly stdio: StdioMessageTransport;
  /** Resolves when the process is asked to stop (a signal). */
  readonly stop: Promise<void>;
  /** One line for the user, on stderr. */
  readonly report: (line: string) => void;
  /** Starts serving on `stdio`; resolves with the function that ends it (ends the session, releases the core). */
  readonly serve: () => Promise<() => Promise<void>>;
}

function within(task: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    task.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

/**
 * Runs `vigil mcp`'s session until stdin ends (or a signal), then ends it within the shutdown
 * budget and resolves the exit status: 0, or 1 when a message could not be answered (said on
 * stderr). Ending never waits past the budget: it says so and returns, so the process can exit.
 */
export async function runStdioSession(options: StdioSessionOptions): Promise<0 | 1> {
  const finish = await options.serve();
  const end: StdioEnd | undefined = await Promise.race([options.stdio.ended, options.stop.then(() => undefined)]);
  if (!(await within(finish(), stdioShutdownBudgetMs))) {
    options.report(
      `vigil mcp: shutting down took longer than ${stdioShutdownBudgetMs / 1000} s; exiting anyway (every call that finished is on disk).`,
    );
  }
  if (end?.kind !== 'fatal') return 0;
  options.report(end.message);
  return 1;
}
