import { mkdir } from 'node:fs/promises';
import { dialog, shell } from 'electron';
import type { Logger } from '../logging';

/**
 * Opens the logs folder in the system file manager. The path is Vigil's own ($VIGIL_HOME/logs),
 * never anything a page or an agent supplied, and `openPath` opens it rather than executing it.
 */
export async function openLogsFolder(directory: string, logger: Logger): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const failure = await shell.openPath(directory);
  if (failure !== '') {
    logger.warn('could not open the logs folder', { directory, failure });
    dialog.showErrorBox('Could not open the logs folder', `${failure}\n\nThe logs are in ${directory}`);
  }
}
