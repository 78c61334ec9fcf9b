import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';

/** A command as a commit subject: its first line, secrets masked (before it is cut), at most 100 characters. */
export function commandSubject(command: string): string {
  const firstLine = maskSecretValues(command.trim()).split('\n')[0] ?? '';
  const oneLine = command.trim().includes('\n') ? `${firstLine} …` : firstLine;
  return oneLine.length > 100 ? `${oneLine.slice(0, 99)}…` : oneLine;
}
