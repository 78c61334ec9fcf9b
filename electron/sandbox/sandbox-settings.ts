import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';

/**
 * A network destination as the sandbox's proxy matches it: a host name (`registry.npmjs.org`), a
 * wildcard for its subdomains (`*.github.com`), an IPv4 literal or a bracketed IPv6 literal, each
 * with an optional `:port`.
 */
const domainPattern = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(253)
    .regex(
      /^(\*\.)?([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/u,
      'Give a host name, "*.example.com", an IP address or "[::1]", each with an optional ":port".',
    ),
);

/**
 * `policy.network`: what agent commands may reach. Absent `allowedDomains`: every public host (the
 * default; agents install packages). A list: only those hosts (`[]`: no network at all).
 * `deniedDomains` is refused either way. This machine's own services (loopback, link-local and its
 * own addresses) are never reachable unless an entry names them by IP address and port.
 */
export const networkPolicySchema = lazySchema(() =>
  z
    .object({
      allowedDomains: z.array(domainPattern).max(1000).optional(),
      deniedDomains: z.array(domainPattern).max(1000).default([]),
    })
    .strict(),
);

/** The limits' defaults, far above a normal build and test run: one table for the schema and `defaultSandboxLimits`. */
const limitDefaults = { processes: 2048, memoryMiB: 2048, fileMiB: 4096, cpuSeconds: 1800 };

/**
 * `policy.sandbox.limits`: what one command may use, per process (CPU time, memory, file size) and
 * in processes at once. The defaults are far above a normal build and test run.
 */
export const sandboxLimitsSchema = lazySchema(() =>
  z
    .object({
      /** Processes and threads at once, the command's whole tree. */
      processes: z.int().min(16).max(1_000_000).default(limitDefaults.processes),
      /** Memory each process may allocate, in MiB (heap and private mappings; address space a runtime only reserves is not counted). */
      memoryMiB: z.int().min(64).max(1_048_576).default(limitDefaults.memoryMiB),
      /** The largest file a process may write, in MiB. */
      fileMiB: z.int().min(1).max(16_777_216).default(limitDefaults.fileMiB),
      /** CPU time each process may use, in seconds. */
      cpuSeconds: z.int().min(1).max(1_000_000).default(limitDefaults.cpuSeconds),
    })
    .strict(),
);

/** The limits when config.json sets none (what `sandboxLimitsSchema.parse({})` gives, without building it at import). */
export const defaultSandboxLimits: SandboxLimits = limitDefaults;

/**
 * `policy.sandbox`: the OS sandbox every agent command runs in. `protectedPaths` are made
 * unreadable and unwritable on top of the built-in credential stores and Vigil's data folder
 * (`~` is the home folder); `writablePaths` are writable on top of the workspace roots, the
 * session's private temp folder and the package managers' caches; `bwrapPath` points at the
 * bubblewrap binary (Linux) instead of the one on PATH; `limits` caps what one command may use.
 */
export const sandboxPolicySchema = lazySchema(() =>
  z
    .object({
      protectedPaths: z.array(z.string().min(1).max(4096)).max(500).default([]),
      writablePaths: z.array(z.string().min(1).max(4096)).max(100).default([]),
      bwrapPath: z.string().min(1).max(4096).optional(),
      limits: sandboxLimitsSchema.default(limitDefaults),
    })
    .strict(),
);

/** `policy.network`, defaults applied. */
export type NetworkPolicy = z.output<typeof networkPolicySchema>;
/** `policy.sandbox.limits`, defaults applied. */
export type SandboxLimits = z.output<typeof sandboxLimitsSchema>;
/** `policy.sandbox`, defaults applied. */
export type SandboxPolicy = z.output<typeof sandboxPolicySchema>;

/** What the sandbox reads from config.json before each command. */
export interface SandboxSettings {
  readonly network: NetworkPolicy;
  readonly sandbox: SandboxPolicy;
}

/** The settings when config.json says nothing: any public host, nothing extra protected or writable. */
export const defaultSandboxSettings: SandboxSettings = {
  network: { deniedDomains: [] },
  sandbox: { protectedPaths: [], writablePaths: [], limits: defaultSandboxLimits },
};
