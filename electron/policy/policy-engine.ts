import path from 'node:path';
import type { ConfigFile } from '../config';
import type { Logger } from '../logging';
import type { CommandAssessment } from './assess-command';
import { matchesCommandPattern } from './command-pattern';
import { directoryBuiltins } from './directory-change';
import { globsMayOverlap, matchesGlob } from './glob-pattern';
import { defaultDangerousCommands, readPolicySection, type PolicyConfig, type PolicyRule } from './policy-config';

/** A path a call touches, already confined to the workspace (or a memory directory). */
export interface TouchedPath {
  readonly absolute: string;
  /** The workspace root (or memory directory) it is in; rule globs that are not absolute match relative to it. */
  readonly root?: string;
  /** For a terminal command's glob target: its whole pattern (absolute); `absolute` is the folder it expands in. */
  readonly pattern?: string;
}

/** What the policy decides about: one validated, confined tool call. */
export interface PolicySubject {
  readonly tool: string;
  readonly paths: readonly TouchedPath[];
  /** For `terminal`: the parsed command. */
  readonly terminal?: CommandAssessment;
  /** Why the call would run outside the OS sandbox (it cannot start here, and what fixes it): a person decides, whatever the rules say. */
  readonly unsandboxed?: string;
  /** What the call would change that no checkpoint can bring back: a person decides, told that it cannot be undone. */
  readonly cannotUndo?: readonly string[];
}

/** allow, ask a human, or block; the reason is shown to the agent and the user. */
export type PolicyVerdict =
  | { readonly kind: 'allow'; readonly reason?: string }
  | { readonly kind: 'ask'; readonly reason: string }
  | { readonly kind: 'block'; readonly reason: string };

const strength = { allow: 0, ask: 1, deny: 2 } as const;

function ruleTools(rule: PolicyRule): readonly string[] {
  if (rule.tool === undefined) return ['*'];
  return typeof rule.tool === 'string' ? [rule.tool] : rule.tool;
}

/** A touched path as a rule glob sees it: relative to its root unless the glob is absolute. */
function asRuleSees(glob: string, touched: TouchedPath): { readonly candidate: string; readonly pattern?: string } {
  const { pattern } = touched;
  if (path.isAbsolute(glob) || glob.startsWith('~') || touched.root === undefined)
    return { candidate: touched.absolute, pattern };
  const relative = (absolute: string): string =>
    path
      .relative(touched.root ?? '', absolute)
      .split(path.sep)
      .join('/');
  return { candidate: relative(touched.absolute), pattern: pattern === undefined ? undefined : relative(pattern) };
}

/** Whether a rule glob matches a touched path, or (for a glob target) some path the glob could expand to. */
function pathTouches(glob: string, touched: TouchedPath): boolean {
  const seen = asRuleSees(glob, touched);
  if (matchesGlob(seen.candidate, glob) || matchesGlob(touched.absolute, glob)) return true;
  return seen.pattern !== undefined && globsMayOverlap(glob, seen.pattern);
}

/** Whether a rule glob covers a touched path, and (for a glob target) everything it could expand to (`dir/**` over `dir/*.o`). */
function pathCovered(glob: string, touched: TouchedPath): boolean {
  const seen = asRuleSees(glob, touched);
  if (matchesGlob(seen.candidate, glob) || matchesGlob(touched.absolute, glob))
    return seen.pattern === undefined || glob === '**';
  if (!glob.endsWith('/**')) return false;
  // `dir/**` covers the folder itself and everything a glob under it expands to.
  const folder = glob.slice(0, -3);
  let candidate = seen.candidate;
  for (;;) {
    if (matchesGlob(candidate, folder)) return true;
    const parent = path.posix.dirname(candidate);
    if (parent === candidate) return false;
    candidate = parent;
  }
}

/**
 * Whether a rule applies to a call. `deny` and `ask` rules apply when ANY program of a command
 * matches and ANY path it touches matches. An `allow` rule applies only when it covers the whole
 * call: EVERY program (`cd` aside) matches its command pattern and EVERY target and directory
 * matches its path glob — `npm *` does not allow `npm test && rm -rf ../x`.
 */
function ruleMatches(rule: PolicyRule, subject: PolicySubject): boolean {
  const tools = ruleTools(rule);
  if (!tools.includes('*') && !tools.includes(subject.tool)) return false;
  const isAllow = rule.effect === 'allow';
  const terminal = subject.terminal;
  if (rule.command !== undefined) {
    const pattern = rule.command;
    const programs = (terminal?.analysis.invocations ?? []).filter(
      (invocation) => !directoryBuiltins.has(invocation.program),
    );
    const matches = (invocation: (typeof programs)[number]): boolean => matchesCommandPattern(invocation, pattern);
    if (!(isAllow ? programs.length > 0 && programs.every(matches) : programs.some(matches))) return false;
  }
  if (rule.path !== undefined) {
    const glob = rule.path;
    if (isAllow) {
      if (terminal?.hasUnknownPaths === true) return false;
      const paths: readonly TouchedPath[] =
        terminal === undefined || terminal.touched.length === 0 ? subject.paths : terminal.touched;
      return paths.length > 0 && paths.every((touched) => pathCovered(glob, touched));
    }
    const paths: readonly TouchedPath[] = [...subject.paths, ...(terminal?.touched ?? [])];
    if (!paths.some((touched) => pathTouches(glob, touched))) return false;
  }
  return true;
}

function describeRule(rule: PolicyRule): string {
  const parts = [`tool ${ruleTools(rule).join('|')}`];
  if (rule.path !== undefined) parts.push(`path ${rule.path}`);
  if (rule.command !== undefined) parts.push(`command "${rule.command}"`);
  return rule.reason ?? `your rule "${rule.effect}" for ${parts.join(', ')} in config.json`;
}

/**
 * Decides every tool call: hardline refusals first (never overridable), then the user's rules
 * from config.json (deny beats ask beats allow; an allow rule must cover the whole command), then
 * the built-in cautions — dangerous commands, commands Vigil cannot see through — which ask a
 * human, and confinement — writes outside the workspace, credential stores — which asks even when
 * an allow rule matches. A broken config.json makes every call ask (fail closed) until it is fixed.
 */
export class PolicyEngine {
  readonly #config: ConfigFile;
  readonly #logger: Logger;

  constructor(options: { readonly config: ConfigFile; readonly logger: Logger }) {
    this.#config = options.config;
    this.#logger = options.logger;
  }

  /** The policy section of config.json, or the problem with it. */
  async settings(): Promise<{ readonly config: PolicyConfig; readonly problem?: string }> {
    const section = await readPolicySection(this.#config);
    if (section.problem !== undefined)
      this.#logger.warn('config.json is unusable; every tool call asks a human until it is fixed', {
        error: section.problem,
      });
    return section;
  }

  /** The verdict for one call. */
  async decide(subject: PolicySubject): Promise<PolicyVerdict> {
    const terminal = subject.terminal;
    if (terminal !== undefined && terminal.analysis.hardline.length + terminal.refusals.length > 0) {
      return {
        kind: 'block',
        reason: `Vigil never runs this command: ${[...terminal.analysis.hardline, ...terminal.refusals].join('; ')}. Rule: the hardline list (docs/policy.md), which no setting or approval overrides.`,
      };
    }
    const { config, problem } = await this.settings();
    if (problem !== undefined)
      return { kind: 'ask', reason: `config.json cannot be used, so every call needs a human: ${problem}` };
    const matching = config.rules.filter((rule) => ruleMatches(rule, subject));
    const strongest = matching.sort((a, b) => strength[b.effect] - strength[a.effect])[0];
    if (strongest?.effect === 'deny') return { kind: 'block', reason: `Refused by ${describeRule(strongest)}.` };
    // What no rule skips: running outside the sandbox, a change no checkpoint can undo, writes outside the workspace, credential stores.
    const mandatory = mandatoryReasons(subject);
    if (strongest?.effect === 'ask') return { kind: 'ask', reason: [describeRule(strongest), ...mandatory].join('; ') };
    if (strongest?.effect === 'allow')
      return mandatory.length === 0
        ? { kind: 'allow', reason: describeRule(strongest) }
        : { kind: 'ask', reason: mandatory.join('; ') };
    const reasons = [
      ...(terminal === undefined ? [] : cautionReasons(terminal, config.dangerousCommands ?? defaultDangerousCommands)),
      ...mandatory,
    ];
    return reasons.length === 0 ? { kind: 'allow' } : { kind: 'ask', reason: reasons.join('; ') };
  }
}

/** The reasons to ask that no allow rule skips. */
function mandatoryReasons(subject: PolicySubject): string[] {
  const reasons: string[] = [];
  if (subject.unsandboxed !== undefined) reasons.push(subject.unsandboxed);
  if (subject.cannotUndo !== undefined && subject.cannotUndo.length > 0)
    reasons.push(`it cannot be undone: ${subject.cannotUndo.join('; ')}`);
  if (subject.terminal !== undefined) reasons.push(...confinementReasons(subject.terminal));
  return reasons;
}

/** What no rule can allow: a command that names credential stores or writes outside the workspace. */
function confinementReasons(terminal: CommandAssessment): string[] {
  const reasons: string[] = [];
  if (terminal.sensitive.length > 0) reasons.push(`it names protected locations: ${terminal.sensitive.join(', ')}`);
  if (terminal.outsideTargets.length > 0)
    reasons.push(`it writes outside the workspace: ${terminal.outsideTargets.slice(0, 5).join(', ')}`);
  return reasons;
}

/** The built-in cautions a matching allow rule skips: dangerous commands, and what Vigil cannot see through. */
function cautionReasons(terminal: CommandAssessment, dangerous: readonly string[]): string[] {
  const reasons: string[] = [];
  for (const pattern of dangerous) {
    if (terminal.analysis.invocations.some((invocation) => matchesCommandPattern(invocation, pattern)))
      reasons.push(`it matches the dangerous command "${pattern}"`);
  }
  reasons.push(...terminal.analysis.concerns);
  return reasons;
}
