import { createSandboxWorld } from './sandbox-fixture';

/**
 * A stand-in for a resident core, to be killed: builds the sandbox world in the folder given as
 * its argument (as the core builds its CommandSandbox), starts `echo > started; sleep 600` in the
 * workspace through its spawn server, prints the spawn server's pid and waits.
 */
const base = process.argv[2] ?? '';
const world = await createSandboxWorld({ 'src/app.ts': 'export {};\n' }, { base });
void world.run('echo > started; sleep 600').catch(() => undefined);
process.stdout.write(`${JSON.stringify({ spawner: await world.sandbox.spawnerPid() })}\n`);
setInterval(() => undefined, 60_000);
