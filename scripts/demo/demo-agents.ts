import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DemoAgent } from './demo-agent';

/** The command that deletes the build folder: destructive, so Vigil checkpoints first (and, in the demo, asks you). */
export const deleteBuildCommand = process.platform === 'win32' ? 'rmdir /s /q build' : 'rm -rf build';

/** Ada refactors: reads, writes a new module, patches callers, documents it, and drops an argument once. */
const ada: DemoAgent = {
  name: 'Ada',
  color: 35,
  delay: 0,
  async run({ turn, call, reply, pause, say }) {
    await turn('Add a slugify helper and use it in greet()');
    await call([{ name: 'read_file', arguments: { path: 'src/strings.mjs' } }]);
    await pause(2);
    await call([
      {
        name: 'write_file',
        arguments: {
          path: 'src/slug.mjs',
          content:
            "/** Turns a title into a URL slug. */\nexport function slugify(text) {\n  return text.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');\n}\n",
        },
      },
    ]);
    await pause(2);
    await call([
      {
        name: 'patch',
        arguments: {
          path: 'src/greet.mjs',
          old_string: "import { capitalize } from './strings.mjs';",
          new_string: "import { capitalize } from './strings.mjs';\nimport { slugify } from './slug.mjs';",
        },
      },
    ]);
    await pause(2);
    say(
      'Under context pressure a model sometimes drops a long argument. Vigil refuses instead of writing an empty file:',
    );
    await call([{ name: 'write_file', arguments: { path: 'src/profile.mjs' } }]);
    await reply('Added slugify() in src/slug.mjs and imported it in greet.mjs.');
    await pause(3);
    await turn('Document slugify in the README, and rename greet to welcome everywhere');
    await call(
      [
        {
          name: 'patch',
          arguments: {
            path: 'README.md',
            old_string: '## Usage',
            new_string: '## Usage\n\n`slugify(title)` turns a title into a URL slug.',
          },
        },
        {
          name: 'patch',
          arguments: {
            path: 'src/greet.mjs',
            old_string: 'export function greet(name)',
            new_string: 'export function welcome(name)',
          },
        },
      ],
      { concurrent: true },
    );
    await pause(2);
    await call([
      {
        name: 'patch',
        arguments: { path: 'README.md', old_string: "greet('Ada')", new_string: "welcome('Ada')", replace_all: true },
      },
    ]);
    await reply('Documented slugify and renamed greet() to welcome(). (Try undoing this turn in the UI.)');
  },
};

/** Grace tests: writes a test, runs it, then wants to delete the build folder (which waits for you). */
const grace: DemoAgent = {
  name: 'Grace',
  color: 36,
  delay: 1.5,
  async run({ turn, call, reply, pause, say }) {
    await turn('Add tests for the math helpers and run them');
    await call([
      {
        name: 'write_file',
        arguments: {
          path: 'tests/math.test.mjs',
          content:
            "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.mjs';\n\ntest('add', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
        },
      },
    ]);
    await pause(2);
    const [tests] = await call([
      { name: 'terminal', arguments: { command: 'node --test tests/', timeout_ms: 60_000 } },
    ]);
    if (tests?.result.ok === true) say('The tests ran (exit code in the outcome above).');
    await reply('Added tests/math.test.mjs; it passes.');
    await pause(3);
    await turn('The build folder is stale: delete it');
    say(
      `Running "${deleteBuildCommand}": Vigil takes a checkpoint first, and in this demo asks you in the UI (Approvals).`,
    );
    const [outcome] = await call([{ name: 'terminal', arguments: { command: deleteBuildCommand } }]);
    await reply(
      outcome?.result.ok === true
        ? 'Deleted build/. It is in the checkpoint taken just before, if you want it back.'
        : 'I did not delete build/ (the command was refused).',
    );
  },
};

/** Linus keeps the team's memory: adds entries, then replaces one after somebody edits MEMORY.md by hand. */
const linus: DemoAgent = {
  name: 'Linus',
  color: 33,
  delay: 3,
  async run({ turn, call, reply, pause, say, ownHome }) {
    await turn('Remember the conventions of this project');
    await call([
      {
        name: 'memory',
        arguments: {
          action: 'add',
          target: 'memory',
          content: 'tiny-greeter uses ES modules (.mjs) and 2-space indentation.',
        },
      },
    ]);
    await pause(1.5);
    await call([
      { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Tests run with node --test tests/.' } },
    ]);
    await call([
      { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers small, reviewable changes.' } },
    ]);
    await reply('Noted the conventions in MEMORY.md and your preference in USER.md.');
    await pause(3);
    if (ownHome !== undefined) {
      const file = path.join(ownHome, 'memories', 'MEMORY.md');
      say(
        `Meanwhile someone edits ${file} by hand (like "cat >>"): watch the Memory screen flag it as an external edit.`,
      );
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, '\n§\nReleases are cut on Fridays.');
      await pause(3);
    }
    await turn('We switched to tabs: update the memory');
    await call([
      {
        name: 'memory',
        arguments: {
          action: 'replace',
          target: 'memory',
          old_text: '2-space indentation',
          content: 'tiny-greeter uses ES modules (.mjs) and tabs for indentation.',
        },
      },
    ]);
    await call([{ name: 'memory', arguments: { action: 'read', target: 'memory' } }]);
    await reply('Updated the indentation convention; the external entry was kept.');
  },
};

/** The three agents of the demo. */
export const demoAgents: readonly DemoAgent[] = [ada, grace, linus];
