import type { SandboxLimits } from './sandbox-settings';

/**
 * The shell lines that set a command's limits before it runs, inside the sandbox: soft and hard
 * (no -H/-S: dash keeps only the last of them), so nothing the command starts can raise them. The
 * kernel does not apply the process limit to root (RLIMIT_NPROC exempts uid 0), so a Vigil run as
 * root limits CPU, memory and file size only. A shell that cannot set one stops with code 125 rather
 * than run the command without it. bash names the process limit `-u`, dash `-p`.
 */
const cpuGraceSeconds = 5;

/** The shell lines (see above). */
export function limitPrefix(limits: SandboxLimits): string {
  const steps = [
    // CPU: the soft limit sends SIGXCPU (reported as this limit); the hard one, a little later, SIGKILL.
    `ulimit -S -t ${limits.cpuSeconds} && ulimit -H -t ${limits.cpuSeconds + cpuGraceSeconds}`,
    `ulimit -d ${limits.memoryMiB * 1024}`,
    `ulimit -f ${limits.fileMiB * 2048}`,
    `{ ulimit -u ${limits.processes} 2>/dev/null || ulimit -p ${limits.processes}; }`,
  ];
  return `${steps.join(' && ')} || { echo "vigil: the sandbox's limits could not be set; the command was not run" >&2; exit 125; }\n`;
}

/** What a finished command shows of a limit it hit. */
export interface FinishedCommand {
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  readonly stdout: string;
}

/** Exit codes a shell gives a command killed by SIGXCPU (24) or SIGXFSZ (25). */
const cpuCodes = new Set([128 + 24]);
const fileCodes = new Set([128 + 25]);

const processSigns =
  /fork: (retry: )?Resource temporarily unavailable|Cannot fork|can't fork|fork failed|EAGAIN.*spawn|spawn.*EAGAIN/iu;
const memorySigns =
  /Cannot allocate memory|MemoryError|out of memory|bad_alloc|memory allocation failed|Allocation failed|ENOMEM|failed to allocate/iu;

/**
 * The limits a command hit, in words for the agent and the log: which limit, its value, and the
 * `policy.sandbox.limits` key that raises it. Read from the signal or exit code (CPU time, file
 * size) and from what the programs said (processes, memory).
 */
export function limitNotes(result: FinishedCommand, limits: SandboxLimits): string[] {
  const notes: string[] = [];
  const text = `${result.stderr}\n${result.stdout}`;
  const key = (name: string): string => `policy.sandbox.limits.${name} in Vigil's config.json`;
  if (result.signal === 'SIGXCPU' || (result.exit_code !== null && cpuCodes.has(result.exit_code)))
    notes.push(
      `The command hit the sandbox's CPU time limit of ${limits.cpuSeconds} s per process (${key('cpuSeconds')}).`,
    );
  if (
    result.signal === 'SIGXFSZ' ||
    (result.exit_code !== null && fileCodes.has(result.exit_code)) ||
    /File size limit exceeded/iu.test(text)
  )
    notes.push(`The command hit the sandbox's file size limit of ${limits.fileMiB} MiB (${key('fileMiB')}).`);
  if (processSigns.test(text))
    notes.push(`The command hit the sandbox's limit of ${limits.processes} processes at once (${key('processes')}).`);
  if (memorySigns.test(text))
    notes.push(
      `The command may have hit the sandbox's memory limit of ${limits.memoryMiB} MiB per process (${key('memoryMiB')}).`,
    );
  return notes;
}
