import type { CallResponse } from '../../shared/contract';

/** What the connect snippets are made of: this Vigil's CLI by absolute path, its data folder and Hermes's active home. */
export interface ConnectTarget {
  readonly home: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly hermesHome: string;
}

/** What the connect snippets need from the core's app:info; undefined until it arrived (or from a core that does not say). */
export function connectTargetOf(info: CallResponse<'app:info'> | undefined): ConnectTarget | undefined {
  if (info?.connect === undefined) return undefined;
  return {
    home: info.home,
    command: info.connect.command,
    args: info.connect.args,
    hermesHome: info.connect.hermesHome,
  };
}
