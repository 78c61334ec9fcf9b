import { access, constants } from 'node:fs/promises';
import path from 'node:path';

/**
 * The helper that holds a flock(2) lock for Node, which has no flock of its own (a native addon
 * would have to be rebuilt for Electron). It speaks one line per request on stdin/stdout:
 *
 *   LOCK    → WAITING (only if someone else holds it), then LOCKED, or ERROR <why>
 *   UNLOCK  → UNLOCKED
 *
 * The lock file is the helper's only argument. It is opened afresh for every LOCK (so a file
 * replaced in between is the one locked), never through a symlink (O_NOFOLLOW), created 0600 when
 * missing, and must be a regular file. Closing stdin, or the helper dying, releases the lock: the
 * kernel drops a flock with its last descriptor, so a crash of Vigil never leaves Hermes locked out.
 */
const perlScript = String.raw`
use strict; use warnings; use Fcntl qw(:DEFAULT :flock); use Errno;
$| = 1;
my $path = $ARGV[0];
my $fh;
while (defined(my $line = <STDIN>)) {
  chomp $line;
  if ($line eq 'LOCK') {
    if (!sysopen($fh, $path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600)) {
      print($!{ELOOP} ? "ERROR symlink\n" : "ERROR open $!\n");
      undef $fh;
      next;
    }
    if (!-f $fh) { close($fh); undef $fh; print "ERROR not-a-file\n"; next; }
    if (!flock($fh, LOCK_EX | LOCK_NB)) {
      print "WAITING\n";
      if (!flock($fh, LOCK_EX)) { my $why = "$!"; close($fh); undef $fh; print "ERROR flock $why\n"; next; }
    }
    print "LOCKED\n";
  } elsif ($line eq 'UNLOCK') {
    if (defined $fh) { flock($fh, LOCK_UN); close($fh); undef $fh; }
    print "UNLOCKED\n";
  }
}
`;

/**
 * The same protocol with util-linux flock(1), for Linux systems without perl. The shell cannot
 * open without following symlinks, so the link check right before the open leaves a window that
 * the perl helper does not have.
 */
const shellScript = String.raw`
umask 077
p=$1
while IFS= read -r line; do
  case $line in
    LOCK)
      if [ -L "$p" ]; then echo "ERROR symlink"; continue; fi
      if [ -e "$p" ] && [ ! -f "$p" ]; then echo "ERROR not-a-file"; continue; fi
      if ! exec 9>>"$p"; then echo "ERROR open"; continue; fi
      if ! flock -n 9; then
        echo WAITING
        if ! flock 9; then exec 9>&-; echo "ERROR flock"; continue; fi
      fi
      echo LOCKED;;
    UNLOCK)
      flock -u 9 2>/dev/null; exec 9>&- 2>/dev/null; echo UNLOCKED;;
  esac
done
`;

/** How to start a helper for one lock file. */
export interface FlockHelperProgram {
  /** `perl` or `flock(1)`, for logs and the benchmark. */
  readonly kind: 'perl' | 'flock';
  readonly command: string;
  /** The arguments, the lock file last. */
  args(lockPath: string): string[];
}

async function findOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const folder of (env['PATH'] ?? '').split(path.delimiter).filter((part) => part !== '')) {
    const candidate = path.join(folder, name);
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

/** The kinds of helper, in the order they are preferred. */
export const flockHelperKinds: readonly FlockHelperProgram['kind'][] = ['perl', 'flock'];

/**
 * The helper this machine can run: perl (on macOS and Debian/Ubuntu by default), else flock(1)
 * with a POSIX shell; undefined when neither exists, and always on Windows, where Hermes locks with
 * msvcrt instead of flock. `kinds` narrows or reorders the choice (tests run both).
 */
export async function findFlockHelperProgram(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  kinds: readonly FlockHelperProgram['kind'][] = flockHelperKinds,
): Promise<FlockHelperProgram | undefined> {
  if (platform === 'win32') return undefined;
  for (const kind of kinds) {
    if (kind === 'perl') {
      const perl = await findOnPath('perl', env);
      if (perl !== undefined) return { kind, command: perl, args: (lockPath) => ['-e', perlScript, lockPath] };
    } else {
      const [flock, shell] = await Promise.all([findOnPath('flock', env), findOnPath('sh', env)]);
      if (flock !== undefined && shell !== undefined)
        return { kind, command: shell, args: (lockPath) => ['-c', shellScript, 'vigil-flock', lockPath] };
    }
  }
  return undefined;
}
