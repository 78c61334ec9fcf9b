import { actorOfCall } from '../transport';
import type { PartialCallHandlers } from '../transport';
import type { MemoryService } from './memory-service';

/** The handlers of the `memory:` calls. */
export function createMemoryHandlers(
  memory: MemoryService,
): PartialCallHandlers<
  | 'memory:directories'
  | 'memory:read'
  | 'memory:mutate'
  | 'memory:propose-adoption'
  | 'memory:adopt'
  | 'memory:keep-appended'
> {
  return {
    'memory:directories': async () => ({ directories: await memory.directories() }),
    'memory:read': (request) => memory.read(request.dir, request.target),
    'memory:mutate': (request, context) => {
      const names = request.fieldNames;
      const attribution = { actor: actorOfCall(context) };
      return memory.mutate(
        request.dir,
        request.target,
        request.operation,
        names === undefined ? { attribution } : { attribution, fieldOf: (_index, property) => names[property] },
      );
    },
    'memory:propose-adoption': (request) => memory.proposeAdoption(request.dir, request.target),
    'memory:adopt': (request, context) =>
      memory.adopt(request.dir, request.target, request.basis, request.entries, { actor: actorOfCall(context) }),
    'memory:keep-appended': (request, context) =>
      memory.keepAppended(request.dir, request.target, request.basis, request.entry, request.original, {
        actor: actorOfCall(context),
      }),
  };
}
