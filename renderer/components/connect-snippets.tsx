import { useState } from 'react';
import { clientProfiles, connectSnippet, type ConnectClientId } from '../../shared/connect/connect-config';
import type { ConnectTarget } from '../model/connect-target';
import { CopySnippet } from './copy-snippet';

/** The clients in the order the picker shows them. */
const clientOrder: readonly ConnectClientId[] = ['claude-code', 'gemini-cli', 'cursor', 'vscode', 'hermes', 'codex'];

/**
 * How to connect each MCP client to this Vigil: exactly what `vigil connect <client>` prints
 * (the stdio form, from the same shared code), where it goes, and what the client keeps of its own tools.
 */
export function ConnectSnippets({
  target,
  testId,
}: {
  readonly target: ConnectTarget | undefined;
  readonly testId?: string;
}) {
  const [client, setClient] = useState<ConnectClientId>('claude-code');
  const profile = clientProfiles[client];
  return (
    <div className="connect-snippets" data-testid={testId} data-client={client}>
      <div className="segmented" role="group" aria-label="Agent client">
        {clientOrder.map((id) => (
          <button
            key={id}
            type="button"
            aria-pressed={id === client}
            onClick={() => setClient(id)}
            data-testid={`connect-${id}`}
          >
            {clientProfiles[id].name}
          </button>
        ))}
      </div>
      {target !== undefined && (
        <CopySnippet
          label={profile.fileHint}
          text={connectSnippet({
            client,
            transport: 'stdio',
            vigil: { command: target.command, args: target.args },
            vigilHome: target.home,
            hermesHome: target.hermesHome,
          })}
          testId={testId === undefined ? undefined : `${testId}-text`}
        />
      )}
      <p className="connect-own-tools">{profile.ownTools}</p>
      <p>
        Or run <code>vigil connect {client} --write</code> in the project: it shows this change to the file, then makes
        it. <code>--http</code> gives the HTTP form with the client’s own credential.
      </p>
    </div>
  );
}
