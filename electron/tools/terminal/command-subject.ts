/** A command as a commit subject: its first line, at most 100 characters. */
export function commandSubject(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  const oneLine = command.trim().includes('\n') ? `${firstLine} …` : firstLine;
  return oneLine.length > 100 ? `${oneLine.slice(0, 99)}…` : oneLine;
}
