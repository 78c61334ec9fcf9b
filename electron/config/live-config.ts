import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { ConfigProblem } from '../../shared/contract/config-contract';
import { AppError, isAppError } from '../../shared/errors';
import type { Disposer } from '../lib';
import type { Logger } from '../logging';
import { parseConfigSection } from './config-file';

/** One section of config.json this process validates (and, for some, applies while running). */
export interface ConfigSectionSpec {
  readonly name: string;
  readonly schema: z.ZodType;
  /** Only checked, to report a bad edit: its feature reads it itself (policy reads it at each decision). */
  readonly isCheckedOnly?: boolean;
  /** What happens while the section is invalid, as the report says it (default: its last valid value stays in force). */
  readonly whileInvalid?: string;
}

/** Coalesces the bursts of events one save makes (an editor's temp file, rename and chmod). */
const settleMs = 100;

/** The document, or the problem that stops it from being one. */
async function readDocument(
  file: string,
): Promise<{ readonly document: unknown } | { readonly problem: Omit<ConfigProblem, 'at'> }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { document: {} };
    return {
      problem: {
        field: '(root)',
        message: `Could not read ${file}: ${(error as Error).message}. Check its permissions.`,
      },
    };
  }
  try {
    return { document: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      problem: {
        field: '(root)',
        message: `${file} is not valid JSON (${(error as Error).message}). Fix it or remove it to use the defaults.`,
      },
    };
  }
}

/**
 * config.json as a running process sees it: each section's last valid value, and what is wrong
 * with the file when an edit made it invalid. An invalid edit changes nothing in force: the last
 * valid value of the section stays, and the problem names the field. Opening fails (naming the
 * field) when there is no valid version yet, so nothing ever runs on a guess.
 */
export class LiveConfig {
  readonly #values = new Map<string, unknown>();
  #problem: ConfigProblem | null = null;
  /** The document read at open, while its checked-only sections have not been checked yet (see `problem`). */
  #unchecked: { readonly document: unknown; readonly at: string } | undefined;

  private constructor(
    readonly file: string,
    private readonly sections: readonly ConfigSectionSpec[],
  ) {}

  /** Reads config.json now; throws the AppError naming the field when a section is invalid. */
  static async open(file: string, sections: readonly ConfigSectionSpec[]): Promise<LiveConfig> {
    const config = new LiveConfig(file, sections);
    const read = await readDocument(file);
    // Without a valid version there is nothing to keep in force: say what is wrong and stop.
    if ('problem' in read)
      throw new AppError('invalid_request', read.problem.message, { field: read.problem.field, path: file });
    for (const section of sections) {
      if (section.isCheckedOnly === true) continue;
      config.#values.set(section.name, parseConfigSection(read.document, file, section.name, section.schema));
    }
    // The sections only checked are checked when their problem is first asked for, against this
    // same document: a one-shot `vigil checkpoint` never asks, and building and running their
    // schemas took ~13 ms of the main thread while its walk ran.
    config.#unchecked = { document: read.document, at: new Date().toISOString() };
    return config;
  }

  /** The value in force of a section (its defaults when config.json or the section is missing). */
  section<S extends z.ZodType>(name: string, _schema: S): z.output<S> {
    if (!this.#values.has(name)) throw new Error(`config section "${name}" was not opened`);
    return this.#values.get(name) as z.output<S>;
  }

  /** What is wrong with config.json now, or null. */
  problem(): ConfigProblem | null {
    const unchecked = this.#unchecked;
    if (unchecked !== undefined) {
      this.#unchecked = undefined;
      // The others were parsed valid from this document at open: only the checked-only ones can be at fault.
      this.#setProblem(
        this.#check(unchecked.document, unchecked.at, (section) => section.isCheckedOnly === true).problem,
      );
    }
    return this.#problem;
  }

  /**
   * Reads config.json again: valid sections take their new value, an invalid one keeps its last
   * valid value and becomes the problem. Returns the names of the sections whose value changed.
   */
  async reload(): Promise<readonly string[]> {
    const read = await readDocument(this.file);
    const at = new Date().toISOString();
    // Open's document checked first, as it was: a problem that persists keeps when it was first seen.
    this.problem();
    if ('problem' in read) {
      this.#setProblem({ ...read.problem, at });
      return [];
    }
    const { changed, problem } = this.#check(read.document, at, () => true);
    this.#setProblem(problem);
    return changed;
  }

  /**
   * Parses the sections `isIncluded` picks from `document`: a valid one takes its value (unless
   * only checked), an invalid one keeps its last valid value; the first invalid one is the problem.
   */
  #check(
    document: unknown,
    at: string,
    isIncluded: (section: ConfigSectionSpec) => boolean,
  ): { readonly changed: readonly string[]; readonly problem: ConfigProblem | null } {
    const changed: string[] = [];
    let problem: ConfigProblem | null = null;
    for (const section of this.sections) {
      if (!isIncluded(section)) continue;
      try {
        const value = parseConfigSection(document, this.file, section.name, section.schema);
        if (section.isCheckedOnly === true) continue;
        if (JSON.stringify(value) !== JSON.stringify(this.#values.get(section.name))) changed.push(section.name);
        this.#values.set(section.name, value);
      } catch (error) {
        if (!isAppError(error)) throw error;
        const field = typeof error.details?.['field'] === 'string' ? error.details['field'] : section.name;
        problem ??= {
          field,
          message: `${error.message} ${section.whileInvalid ?? `The last valid "${section.name}" settings stay in force until it is fixed.`}`,
          at,
        };
      }
    }
    return { changed, problem };
  }

  /**
   * Watches config.json (its folder, so a save by rename is seen) and reloads it after each save;
   * `onReloaded` gets the changed sections. Returns the disposer.
   */
  watch(logger: Logger, onReloaded: (changed: readonly string[]) => void | Promise<void>): Disposer {
    const name = path.basename(this.file);
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const reload = (): void => {
      running = running
        .then(async () => onReloaded(await this.reload()))
        .catch((error: unknown) => logger.error('could not reload config.json', { error }));
    };
    const watcher = watch(path.dirname(this.file), { persistent: false }, (_event, filename) => {
      if (filename !== null && filename !== name) return;
      clearTimeout(timer);
      timer = setTimeout(reload, settleMs);
    });
    watcher.on('error', (error) =>
      logger.warn('stopped watching config.json; changes apply at the next start', { error }),
    );
    return async () => {
      clearTimeout(timer);
      watcher.close();
      await running;
    };
  }

  #setProblem(problem: ConfigProblem | null): void {
    // Keep when it was first seen while the same problem persists.
    if (
      problem !== null &&
      this.#problem !== null &&
      problem.field === this.#problem.field &&
      problem.message === this.#problem.message
    )
      return;
    this.#problem = problem;
  }
}
