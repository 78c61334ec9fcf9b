import path from 'node:path';

/** A location agents may never read or write, even inside a workspace root, and why. */
export interface ProtectedLocation {
  readonly path: string;
  readonly reason: string;
}

/** Credential stores under the home directory: keys, tokens, cloud and registry logins. */
const homeCredentials: readonly (readonly [string, string])[] = [
  ['.ssh', 'SSH keys'],
  ['.gnupg', 'GnuPG keys'],
  ['.aws', 'AWS credentials'],
  ['.azure', 'Azure credentials'],
  ['.config/gcloud', 'Google Cloud credentials'],
  ['.kube', 'Kubernetes credentials'],
  ['.docker/config.json', 'Docker registry logins'],
  ['.netrc', 'network logins'],
  ['.git-credentials', 'git credentials'],
  ['.config/git/credentials', 'git credentials'],
  ['.config/gh', 'GitHub CLI tokens'],
  ['.config/hub', 'GitHub tokens'],
  ['.npmrc', 'npm registry tokens'],
  ['.pypirc', 'PyPI tokens'],
  ['.gem/credentials', 'RubyGems tokens'],
  ['.cargo/credentials', 'crates.io tokens'],
  ['.cargo/credentials.toml', 'crates.io tokens'],
  ['.terraform.d/credentials.tfrc.json', 'Terraform tokens'],
  ['.vault-token', 'Vault token'],
  ['.password-store', 'passwords'],
  ['.pgpass', 'PostgreSQL passwords'],
  ['.my.cnf', 'MySQL passwords'],
  ['.local/share/keyrings', 'the desktop keyring'],
  ['Library/Keychains', 'the macOS keychain'],
];

/** System locations: configuration, kernel interfaces, devices and mounted secrets. */
function systemLocations(): readonly ProtectedLocation[] {
  if (process.platform === 'win32') {
    const windows = process.env['SystemRoot'] ?? 'C:\\Windows';
    return [{ path: windows, reason: 'the Windows system folder' }];
  }
  return [
    { path: '/etc', reason: 'system configuration' },
    { path: '/private/etc', reason: 'system configuration' },
    { path: '/proc', reason: 'kernel process interfaces' },
    { path: '/sys', reason: 'kernel interfaces' },
    { path: '/dev', reason: 'devices' },
    { path: '/boot', reason: 'the boot loader and kernel' },
    { path: '/run/secrets', reason: 'mounted secrets' },
    { path: '/var/run/secrets', reason: 'mounted secrets' },
  ];
}

/** The credential stores under each home directory (what agent commands may neither read nor write). */
export function homeCredentialStores(homeDirs: readonly string[]): readonly ProtectedLocation[] {
  return homeDirs.flatMap((home) =>
    homeCredentials.map(([relative, reason]) => ({ path: path.join(home, ...relative.split('/')), reason })),
  );
}

/** Every protected location for a home directory (given as it is and resolved), plus extra paths. */
export function protectedLocations(
  homeDirs: readonly string[],
  extra: readonly string[] = [],
): readonly ProtectedLocation[] {
  return [
    ...homeCredentialStores(homeDirs),
    ...systemLocations(),
    ...extra.map((location) => ({ path: location, reason: 'protected by Vigil' })),
  ];
}
