import path from 'node:path';
import { AppError } from '../../shared/errors';
import { isPathInside } from '../lib';
import { homeCredentialStores } from './protected-locations';

/** System folders no root may be or lie in: the OS's programs, libraries, configuration and kernel interfaces. */
const systemTrees =
  process.platform === 'win32'
    ? [process.env['SystemRoot'] ?? 'C:\\Windows', process.env['ProgramFiles'] ?? 'C:\\Program Files']
    : [
        '/etc',
        '/usr',
        '/bin',
        '/sbin',
        '/lib',
        '/lib32',
        '/lib64',
        '/libx32',
        '/boot',
        '/dev',
        '/proc',
        '/sys',
        '/System',
        '/private/etc',
      ];

/** Folders that hold other people's or the system's data: a root may lie inside them, never be one. */
const systemFolders =
  process.platform === 'win32'
    ? ['C:\\Users', 'C:\\ProgramData']
    : [
        '/var',
        '/opt',
        '/home',
        '/Users',
        '/root',
        '/run',
        '/srv',
        '/mnt',
        '/media',
        '/private',
        '/private/var',
        '/Library',
        '/Applications',
        '/Volumes',
        '/snap',
        '/nix',
        '/tmp',
        '/private/tmp',
      ];

/** What a refused root is, in words. */
function whyRefused(root: string, home: string, guarded: readonly string[]): string | undefined {
  if (path.dirname(root) === root) return 'the root of the file system';
  if (isPathInside(home, root))
    return root === home ? 'your home folder' : `a folder that holds your home folder (${home})`;
  const tree = systemTrees.find((folder) => isPathInside(root, folder));
  if (tree !== undefined) return `a system folder (${tree})`;
  if (systemFolders.some((folder) => root === folder)) return 'a system folder';
  const own = guarded.find((location) => isPathInside(location, root));
  if (own !== undefined) return `a folder that holds Vigil's data folder or another location Vigil protects (${own})`;
  const store = homeCredentialStores([home]).find((location) => isPathInside(location.path, root));
  if (store !== undefined) return `a folder that holds ${store.reason} (${store.path})`;
  return undefined;
}

/** What roots are checked against. */
export interface RootRules {
  readonly home: string;
  /** $VIGIL_HOME and the other locations no agent may touch. */
  readonly protectedPaths?: readonly string[];
}

/**
 * Refuses a workspace root that is no project folder (`forbidden_path`): `/`, the home folder or a
 * folder holding it, a system folder, a folder that holds Vigil's data folder or a credential store.
 * Agents may write anywhere in a root, so such a root would hand them the whole account. The
 * message says how to start in a project folder instead.
 */
export function refuseUnsafeRoots(roots: readonly string[], rules: RootRules): void {
  const home = path.resolve(rules.home);
  for (const root of roots) {
    const resolved = path.resolve(root);
    const why = whyRefused(
      resolved,
      home,
      (rules.protectedPaths ?? []).map((location) => path.resolve(location)),
    );
    if (why === undefined) continue;
    throw new AppError(
      'forbidden_path',
      `Vigil will not use ${resolved} as a workspace root: it is ${why}, and agents may change anything in a workspace root. Nothing was run or written. Start in a project folder instead: cd into the project before starting the agent (or vigil mcp), pass --root /path/to/project, give the MCP client the project as its root, or add ?cwd=/path/to/project to the /mcp URL.`,
      { field: 'roots', root: resolved, roots: [...roots] },
    );
  }
}
