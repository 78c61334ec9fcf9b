import { z } from 'zod';
import { isAppError } from '../../shared/errors';
import { lazySchema } from '../../shared/lazy-schema';
import type { ConfigFile } from '../config';
import { networkPolicySchema, sandboxPolicySchema } from '../sandbox';

/** The dangerous commands that wait for a human by default (command patterns, see `matchesCommandPattern`). */
export const defaultDangerousCommands: readonly string[] = [
  'sudo',
  'su',
  'doas',
  'git push --force',
  'git push -f',
  'git push --force-with-lease',
  'git push --delete',
  'git push --mirror',
  'git branch -D',
  'git branch --delete --force',
  'git stash drop',
  'git stash clear',
  'git reflog expire',
  'git gc --prune*',
  'git filter-branch',
  'git filter-repo',
  'git update-ref -d',
  'chmod -R',
  'chown -R',
  'kill -9',
  'kill -KILL',
  'pkill',
  'killall',
  'npm publish',
  'cargo publish',
  'docker system prune',
  'docker volume rm',
  'docker rm',
  'kubectl delete',
  'terraform destroy',
  'crontab -r',
];

/** One user rule: what it applies to and what it decides. Every given matcher must match. */
export const policyRuleSchema = lazySchema(() =>
  z
    .object({
      effect: z.enum(['allow', 'ask', 'deny']),
      /** Tool names (`write_file`, `terminal` …); omitted or "*" means every tool. */
      tool: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
      /** A glob (`**`, `*`, `?`, `{a,b}`) on the paths the call touches: absolute, or relative to the path's workspace root. */
      path: z.string().min(1).optional(),
      /** A command pattern (terminal only): the program, then words its arguments contain in order, each a glob. */
      command: z.string().min(1).optional(),
      /** Shown to the agent and in the approval prompt. */
      reason: z.string().max(500).optional(),
    })
    .strict(),
);

/** The `policy` section of $VIGIL_HOME/config.json. */
export const policyConfigSchema = lazySchema(() =>
  z
    .object({
      /** User rules; among those that match, deny beats ask beats allow. Hardline refusals and confinement cannot be overridden. */
      rules: z.array(policyRuleSchema).max(500).default([]),
      /** Commands that wait for a human; replaces the default list when given. */
      dangerousCommands: z.array(z.string().min(1)).max(500).optional(),
      /** How long a call waits for a human before it is denied (fail closed). */
      approvalTimeoutMs: z
        .number()
        .int()
        .min(1_000)
        .max(24 * 60 * 60 * 1000)
        .default(120_000),
      /** What agent commands may reach on the network (default: any public host, never this machine). */
      network: networkPolicySchema.default({ deniedDomains: [] }),
      /** The OS sandbox of agent commands: extra protected and writable paths, the bubblewrap binary. */
      sandbox: sandboxPolicySchema.default(sandboxPolicySchema.parse({})),
    })
    .strict(),
);

/** One user rule. */
export type PolicyRule = z.output<typeof policyRuleSchema>;
/** The policy section, defaults applied. */
export type PolicyConfig = z.output<typeof policyConfigSchema>;

/**
 * The policy section of config.json, or its defaults with the problem that made it unusable (the
 * policy then fails closed: every call asks a human). The one reading of it: the policy engine's,
 * and a one-shot core's sandbox started ahead of its services.
 */
export async function readPolicySection(
  config: ConfigFile,
): Promise<{ readonly config: PolicyConfig; readonly problem?: string }> {
  try {
    return { config: await config.section('policy', policyConfigSchema) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { config: policyConfigSchema.parse({}), problem: error.message };
  }
}
