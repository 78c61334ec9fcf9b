import path from 'node:path';
import type { ConfigFile } from '../config/config-file';
import { isAppError } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import type { CommandAssessment } from './assess-command';
import { matchesCommandPattern } from './command-pattern';
import { matchesGlob } from './glob-pattern';
import { defaultDangerousCommands, policyConfigSchema, type PolicyConfig, type PolicyRule } from './policy-config';

/** A path a call touches, already confined to the workspace (or a memory directory). */
export interface TouchedPath {
  readonly absolute: string;
  /** The workspace root (or memory directory) it is in; rule globs that are not absolute match relative to it. */
  readonly root?: string;
}

/** What the policy decides about: one validated, confined tool call. */
export interface PolicySubject {
  readonly tool: string;
  readonly paths: readonly TouchedPath[];
  /** For `terminal`: the parsed command. */
  readonly terminal?: CommandAssessment;
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

function pathMatches(glob: string, touched: TouchedPath): boolean {
  if (path.isAbsolute(glob) || glob.startsWith('~')) return matchesGlob(touched.absolute, glob);
  const relative = touched.root === undefined ? touched.absolute : path.relative(touched.root, touched.absolute);
  return matchesGlob(relative, glob) || matchesGlob(touched.absolute, glob);
}

function ruleMatches(rule: PolicyRule, subject: PolicySubject): boolean {
  const tools = ruleTools(rule);
  if (!tools.includes('*') && !tools.includes(subject.tool)) return false;
  if (rule.command !== undefined) {
    const pattern = rule.command;
    if (subject.terminal?.analysis.invocations.some((invocation) => matchesCommandPattern(invocation, pattern)) !== true) return false;
  }
  if (rule.path !== undefined) {
    const glob = rule.path;
    const paths: TouchedPath[] = [...subject.paths];
    if (subject.terminal !== undefined) {
      paths.push({ absolute: subject.terminal.cwd });
      for (const effect of subject.terminal.analysis.effects) for (const target of effect.resolved) if (target.path !== undefined) paths.push({ absolute: target.path });
    }
    if (!paths.some((touched) => pathMatches(glob, touched))) return false;
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
 * from config.json (deny beats ask beats allow), then the built-in cautions — dangerous commands,
 * commands Vigil cannot see through, writes outside the workspace — which ask a human. A broken
 * config.json makes every call ask (fail closed) until it is fixed.
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
    try {
      return { config: await this.#config.section('policy', policyConfigSchema) };
    } catch (error) {
      if (!isAppError(error)) throw error;
      this.#logger.warn('config.json is unusable; every tool call asks a human until it is fixed', { error: error.message });
      return { config: policyConfigSchema.parse({}), problem: error.message };
    }
  }

  /** The verdict for one call. */
  async decide(subject: PolicySubject): Promise<PolicyVerdict> {
    const terminal = subject.terminal;
    if (terminal !== undefined && terminal.analysis.hardline.length + terminal.refusals.length > 0) {
      return { kind: 'block', reason: `Vigil never runs this command: ${[...terminal.analysis.hardline, ...terminal.refusals].join('; ')}.` };
    }
    const { config, problem } = await this.settings();
    if (problem !== undefined) return { kind: 'ask', reason: `config.json cannot be used, so every call needs a human: ${problem}` };
    const matching = config.rules.filter((rule) => ruleMatches(rule, subject));
    const strongest = matching.sort((a, b) => strength[b.effect] - strength[a.effect])[0];
    if (strongest?.effect === 'deny') return { kind: 'block', reason: `Refused by ${describeRule(strongest)}.` };
    if (strongest?.effect === 'ask') return { kind: 'ask', reason: describeRule(strongest) };
    if (strongest?.effect === 'allow') return { kind: 'allow', reason: describeRule(strongest) };
    if (terminal === undefined) return { kind: 'allow' };
    return this.#terminalCautions(terminal, config.dangerousCommands ?? defaultDangerousCommands);
  }

  #terminalCautions(terminal: CommandAssessment, dangerous: readonly string[]): PolicyVerdict {
    const reasons: string[] = [];
    for (const pattern of dangerous) {
      if (terminal.analysis.invocations.some((invocation) => matchesCommandPattern(invocation, pattern))) reasons.push(`it matches the dangerous command "${pattern}"`);
    }
    reasons.push(...terminal.analysis.concerns);
    if (terminal.sensitive.length > 0) reasons.push(`it names protected locations: ${terminal.sensitive.join(', ')}`);
    if (terminal.outsideTargets.length > 0) reasons.push(`it writes outside the workspace: ${terminal.outsideTargets.slice(0, 5).join(', ')}`);
    return reasons.length === 0 ? { kind: 'allow' } : { kind: 'ask', reason: reasons.join('; ') };
  }
}
