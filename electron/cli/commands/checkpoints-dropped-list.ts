import type { DroppedCheckpointData } from '../../../shared/contract/checkpoints-live-contract';
import { escapeControls } from '../../../shared/text/control-characters';
import { exitCodes, writeLine, type CliIo } from '../cli-command';
import { cliRoute } from '../cli-context';
import { withCore } from '../relay/relay-or-local';
import { localTime } from './checkpoint-command';

/** One line of the dropped list: dN, short id, taken, reason, when it was dropped and until when it stays (or when it left). */
export function droppedLine(entry: DroppedCheckpointData, width: number): string {
  const number = `d${entry.number}`.padStart(width + 1);
  const state =
    entry.expiredAt === undefined
      ? `dropped ${localTime(entry.droppedAt)} by ${entry.droppedBy}; restorable until ${localTime(entry.expiresAt)}`
      : `dropped ${localTime(entry.droppedAt)} by ${entry.droppedBy}; EXPIRED ${localTime(entry.expiredAt)}${entry.expiredBecause === 'space' ? ' (size cap)' : ''}, gone`;
  return `  ${number}. ${entry.id.slice(0, 8)}  ${localTime(entry.time)}  ${escapeControls(entry.reason)}  [${state}]`;
}

/** `vigil checkpoints list DIR --dropped [--json]`: the recently dropped checkpoints, d1 = newest. */
export async function listDropped(io: CliIo, dir: string, isJson: boolean): Promise<number> {
  const list = await withCore(cliRoute(io), (caller) => caller.call('checkpoints:dropped', { dir }));
  if (isJson) {
    writeLine(
      io.stdout,
      JSON.stringify({
        dir: list.dir,
        total: list.entries.length,
        keepDroppedDays: list.keepDroppedDays,
        entries: list.entries,
      }),
    );
    return exitCodes.ok;
  }
  if (list.entries.length === 0) {
    writeLine(io.stdout, `No recently dropped checkpoints for ${list.dir}.`);
    return exitCodes.ok;
  }
  const restorable = list.entries.filter((entry) => entry.expiredAt === undefined).length;
  writeLine(
    io.stdout,
    `Recently dropped checkpoints of ${list.dir} (${restorable} restorable; kept ${list.keepDroppedDays} days, checkpoints.keepDroppedDays in config.json):`,
  );
  writeLine(io.stdout);
  const width = String(list.entries.length).length;
  for (const entry of list.entries) writeLine(io.stdout, droppedLine(entry, width));
  writeLine(io.stdout);
  writeLine(io.stdout, `  vigil checkpoints diff ${dir} d<N>            preview changes since dropped checkpoint dN`);
  writeLine(
    io.stdout,
    `  vigil checkpoints restore ${dir} d<N> [file]   restore from it (a pre-rollback snapshot is taken first)`,
  );
  return exitCodes.ok;
}
