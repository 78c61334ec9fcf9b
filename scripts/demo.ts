import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { VigilAgentClient } from '../agent-client/vigil-agent-client';
import { resolveVigilHome, vigilPaths } from '../electron/lib';
import { readLiveServeInfo } from '../electron/server';
import { describeOutcome, type DemoAgent, type DemoAgentContext } from './demo/demo-agent';
import { demoAgents } from './demo/demo-agents';
import { connectOrStartServer, type DemoServer } from './demo/demo-server';
import { createSampleProject } from './demo/sample-project';

/**
 * `npm run demo [-- --dir D] [--port N] [--pace F]`: creates a sample project, starts (or joins)
 * `vigil serve`, prints the URL, and runs three scripted agents on the TypeScript agent client,
 * concurrently and slowly enough to watch: writes, patches, a dropped argument, tests, a
 * destructive command that waits for your approval, memory updates and an external edit of
 * MEMORY.md. Ctrl+C stops everything cleanly.
 */
const usage = `Usage: npm run demo [-- --dir D] [--port N] [--pace F]

  --dir D    the sample project's folder (default: a new temp folder)
  --port N   the port for vigil serve when the demo starts it (default 7420; a busy port falls back to any)
  --pace F   multiplies every pause (default 1; 0.2 is brisk, 2 is leisurely)

With VIGIL_HOME set, or a "vigil serve" already running on ~/.vigil, the demo joins that server;
otherwise it starts one on a temporary data folder.`;

const stop = new AbortController();
const write = (line: string): void => void process.stdout.write(`${line}\n`);

function pause(seconds: number, pace: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stop.signal.aborted) {
      reject(new Error('stopped'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    };
    const timer = setTimeout(
      () => {
        stop.signal.removeEventListener('abort', onAbort);
        resolve();
      },
      seconds * pace * 1000,
    );
    stop.signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function chooseHome(): Promise<{ readonly home: string; readonly isOwn: boolean; readonly scratch: string }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vigil-demo-'));
  const fromEnv = process.env['VIGIL_HOME'];
  if (fromEnv !== undefined && fromEnv !== '') return { home: resolveVigilHome(process.env), isOwn: false, scratch };
  const defaultHome = resolveVigilHome({});
  if ((await readLiveServeInfo(vigilPaths(defaultHome).serveInfo)) !== undefined)
    return { home: defaultHome, isOwn: false, scratch };
  return { home: path.join(scratch, 'vigil-home'), isOwn: true, scratch };
}

/** In a data folder the demo owns: make deleting folders wait for a human, so the approval is shown. */
function writeDemoPolicy(home: string): void {
  const file = vigilPaths(home).config;
  if (existsSync(file)) return;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const reason = 'The demo asks before deleting folders: allow or deny it here.';
  const rules = [
    { effect: 'ask', tool: 'terminal', command: 'rm -rf', reason },
    { effect: 'ask', tool: 'terminal', command: 'rmdir /s', reason },
  ];
  writeFileSync(file, `${JSON.stringify({ policy: { rules } }, null, 2)}\n`);
}

async function runAgent(
  agent: DemoAgent,
  server: DemoServer,
  home: string,
  project: string,
  ownHome: string | undefined,
  pace: number,
): Promise<void> {
  const say = (line: string): void => write(`\u001b[${agent.color}m${agent.name.padEnd(6)}\u001b[0m ${line}`);
  await pause(agent.delay, pace);
  const client = await VigilAgentClient.connect({
    url: server.baseUrl,
    token: server.agentToken,
    resolveEndpoint: async () => {
      // The agent credential survives a restart of the server; serve.json says where it runs now.
      const info = await readLiveServeInfo(vigilPaths(home).serveInfo);
      return { url: info?.url ?? server.baseUrl, token: server.agentToken };
    },
  });
  const session = await client.openSession({ agent: agent.name, roots: [project], client: 'vigil demo' });
  session.on('approval.requested', ({ approval }) =>
    say(`⏸ waiting for you: ${approval.summary} — open Approvals in the UI to allow or deny.`),
  );
  session.on('approval.decided', ({ decision, decidedBy }) => say(`▶ approval ${decision} (${decidedBy}).`));
  session.on('session.rewound', ({ rewind }) =>
    say(`↶ you rewound my turns ${rewind.rewoundTurns.join(', ')} (${rewind.mode}); I continue from there.`),
  );
  client.onStateChanged((state) => {
    if (state !== 'closed') say(`connection to Vigil: ${state}`);
  });
  // Closing the session on Ctrl+C also denies a call that waits for approval, so nothing hangs.
  const closeOnStop = (): void => void session.close().catch(() => undefined);
  stop.signal.addEventListener('abort', closeOnStop, { once: true });
  const context: DemoAgentContext = {
    session,
    say,
    ownHome,
    pause: (seconds) => pause(seconds, pace),
    turn: async (userMessage) => {
      const turn = await session.beginTurn(userMessage);
      say(`— turn ${turn}: “${userMessage}”`);
    },
    call: async (calls, options) => {
      const outcomes = await session.callTools(calls, options);
      outcomes.forEach((outcome, index) => {
        const sent = calls[index];
        if (sent !== undefined) say(describeOutcome(outcome, sent));
      });
      return outcomes;
    },
    reply: (text) => session.appendMessage('assistant', text),
  };
  try {
    await agent.run(context);
    await session.endTurn();
    say('done.');
  } finally {
    stop.signal.removeEventListener('abort', closeOnStop);
    await session.close().catch(() => undefined);
    await client.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      port: { type: 'string' },
      pace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    write(usage);
    return;
  }
  const pace = Number(values.pace ?? '1');
  const port = Number(values.port ?? '7420');
  if (!Number.isFinite(pace) || pace < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const { home, isOwn, scratch } = await chooseHome();
  const project = path.resolve(values.dir ?? path.join(scratch, 'tiny-greeter'));
  await createSampleProject(project);
  if (isOwn) writeDemoPolicy(home);
  const server = await connectOrStartServer(home, port, write);
  let isStopping = false;
  process.on('SIGINT', () => {
    if (isStopping) process.exit(130);
    isStopping = true;
    write('\nStopping the demo (Ctrl+C again to force)…');
    stop.abort();
  });
  write('');
  write(`Sample project: ${project}`);
  write(`Vigil data:     ${home}`);
  write(`Open Vigil:     ${server.url}`);
  write("Three agents start working in a few seconds. Watch Sessions, the project's timeline, Memory and Approvals.");
  write('');
  await pause(4, Math.max(pace, 0.25)).catch(() => undefined);
  const ownHome = isOwn ? home : undefined;
  const results = await Promise.allSettled(
    demoAgents.map((agent) => runAgent(agent, server, home, project, ownHome, pace)),
  );
  for (const [index, result] of results.entries()) {
    if (result.status === 'rejected' && !stop.signal.aborted)
      write(`${demoAgents[index]?.name ?? 'agent'} stopped: ${String(result.reason)}`);
  }
  if (server.isOwn && !stop.signal.aborted) {
    write('');
    write(
      'The agents are done. Vigil keeps running so you can explore: restore a checkpoint, undo a turn, diff a file.',
    );
    write(`Open ${server.url} — Ctrl+C stops it.`);
    await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  await server.stop();
  write(
    `Demo stopped. The sample project${server.isOwn ? ' and its Vigil data' : ''} stay in ${scratch} for you to look at.`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
