import { vigilPaths } from '../../lib';
import { mayAutoStart } from './auto-start-policy';
import { readServeCredential, type CredentialLookup } from './serve-credential';

/**
 * Whether a command's calls will leave this process, judged before the command loads (`vigil
 * checkpoint DIR` starts its walk early only when they will not): serve.json names a core (or one
 * that cannot be used, said by the command), or none does and one may start. serve.json as read,
 * for the command to reuse (or as the search gives it, read already). `--local`: never, and serve.json is not read.
 */
export async function expectsCore(search: {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly isLocal: boolean;
  readonly serveLookup?: CredentialLookup;
}): Promise<{
  readonly isExpected: boolean;
  readonly serveLookup?: CredentialLookup;
}> {
  if (search.isLocal) return { isExpected: false };
  const paths = vigilPaths(search.home);
  const serveLookup = search.serveLookup ?? (await readServeCredential(paths.serveInfo));
  if (serveLookup.kind !== 'none') return { isExpected: true, serveLookup };
  const settings = await mayAutoStart({ isAllowed: true, env: search.env, configFile: paths.config });
  return { isExpected: settings !== undefined, serveLookup };
}
