/** How a platform runs a command line: the shell program and its arguments. */
export interface ShellInvocation {
  readonly file: string;
  readonly args: readonly string[];
  /** Windows: pass the command line verbatim (cmd.exe does its own quoting). */
  readonly isVerbatim: boolean;
}

/**
 * The platform's shell for a command line: `/bin/sh -c` on POSIX systems (the syntax the policy
 * parses), `cmd.exe /d /s /c` on Windows (`%ComSpec%` when set), or PowerShell when asked for.
 */
export function platformShell(
  command: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  flavour: 'default' | 'powershell' = 'default',
): ShellInvocation {
  if (platform === 'win32') {
    if (flavour === 'powershell')
      return {
        file: 'powershell.exe',
        args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', command],
        isVerbatim: false,
      };
    const comspec = env['ComSpec'] ?? env['COMSPEC'] ?? 'cmd.exe';
    return { file: comspec, args: ['/d', '/s', '/c', `"${command}"`], isVerbatim: true };
  }
  return { file: '/bin/sh', args: ['-c', command], isVerbatim: false };
}
