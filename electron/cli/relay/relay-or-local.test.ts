import path from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { CallResponse, EventPayload } from '../../../shared/contract';
import { isAppError } from '../../../shared/errors';
import { makeTempDir } from '../../test-support/temp-dir';
import { makeWorkspace, startResidentCore, type ResidentCore, type Workspace } from '../test-support/relay-fixture';
import { withCore, type CoreRoute } from './relay-or-local';

/** The route of a process on `workspace` that may not start a background core, its lines kept in `said`. */
function routeOf(workspace: Workspace, said: string[]): CoreRoute {
  return {
    home: workspace.home,
    env: workspace.env,
    say: (line) => said.push(line),
    isLocal: false,
    mayStart: false,
    clientId: 'cli',
    echo: () => undefined,
  };
}

/** One checkpoint, a refusal and the created event, through the module: typed by the channel, relayed or not. */
async function exercise(workspace: Workspace, said: string[]) {
  return withCore(routeOf(workspace, said), async (caller) => {
    const created: EventPayload<'checkpoints:created'>[] = [];
    const made = await caller.call(
      'checkpoints:create',
      { dir: workspace.project, reason: 'through the module' },
      { events: ['checkpoints:created'], onEvent: ({ payload }) => created.push(payload) },
    );
    expectTypeOf(made).toEqualTypeOf<CallResponse<'checkpoints:create'>>();
    const refused = await caller.result('checkpoints:list', { dir: workspace.project, limit: -1 });
    const thrown: unknown = await caller.call('checkpoints:list', { dir: workspace.project, limit: -1 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    return { kind: caller.kind, made, created, refused, thrown: isAppError(thrown) ? thrown.code : 'not an AppError' };
  });
}

describe('relay-or-local', () => {
  let remove: () => Promise<void>;
  let workspace: Workspace;
  let resident: ResidentCore | undefined;

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-relay-or-local-');
    remove = temp.remove;
    workspace = await makeWorkspace(path.join(temp.dir, 'w'));
  });

  afterEach(async () => {
    await resident?.stop();
    resident = undefined;
    await remove();
  });

  it('relays to the running core: the answer, a refusal as data or thrown, and the events asked for, typed', async () => {
    resident = await startResidentCore(workspace.home, workspace.env);
    const said: string[] = [];
    const outcome = await exercise(workspace, said);
    expect(outcome.kind).toBe('relay');
    expect(resident.calls).toEqual(['checkpoints:create', 'checkpoints:list', 'checkpoints:list']);
    expect(outcome.made.kind).toBe('created');
    expect(outcome.created.map((entry) => entry.dir)).toEqual([workspace.project]);
    expect(outcome.refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(outcome.thrown).toBe('invalid_request');
    expect(said).toEqual([]);
  });

  it('works in-process when no core runs and none may start, with the same answers', async () => {
    const said: string[] = [];
    const outcome = await exercise(workspace, said);
    expect(outcome.kind).toBe('local');
    expect(outcome.made.kind).toBe('created');
    expect(outcome.created.map((entry) => entry.dir)).toEqual([workspace.project]);
    expect(outcome.refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(outcome.thrown).toBe('invalid_request');
    expect(said).toEqual([]);
  });
});
