import type { CallResponse } from '../../../shared/contract';
import type { PartialCallHandlers } from '../../transport';
import { toContractEntry } from '../checkpoint-handlers';
import type { HistoryService } from './history-service';

type FileLogEntry = CallResponse<'checkpoints:file-log'>['entries'][number];

/** The handlers of a file's history and of the search of the past. */
export function createHistoryHandlers(
  history: HistoryService,
): PartialCallHandlers<'checkpoints:file-log' | 'checkpoints:search'> {
  return {
    'checkpoints:file-log': async (request) => {
      const log = await history.fileLog(request.dir, request.path, { includeLive: request.includeLive });
      return {
        dir: log.dir,
        path: log.path,
        checkpoints: log.checkpoints,
        entries: log.entries.map(({ checkpoint, version, next, ...rest }): FileLogEntry => ({
          ...rest,
          checkpoint: toContractEntry(checkpoint),
          version: version && { ...version },
          next: next && { ...next },
        })),
      };
    },
    'checkpoints:search': async (request) => {
      const found = await history.search(request.dir, request.text, {
        includeLive: request.includeLive,
        limit: request.limit,
      });
      return {
        ...found,
        hits: found.hits.map(({ checkpoint, ...rest }) => ({ ...rest, checkpoint: toContractEntry(checkpoint) })),
      };
    },
  };
}
