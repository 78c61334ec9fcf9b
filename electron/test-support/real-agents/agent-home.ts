import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A throwaway HOME set up so that Gemini CLI runs offline: API-key auth chosen, the given folders trusted. */
export async function prepareGeminiHome(home: string, trusted: readonly string[]): Promise<void> {
  const folder = path.join(home, '.gemini');
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2),
  );
  await writeFile(
    path.join(folder, 'trustedFolders.json'),
    JSON.stringify(Object.fromEntries(trusted.map((dir) => [dir, 'TRUST_FOLDER'])), null, 2),
  );
}

/** The environment Claude Code needs to run offline against the scripted model, with HOME and VIGIL_HOME throwaway. */
export function claudeEnvironment(places: {
  readonly home: string;
  readonly vigilHome: string;
  readonly modelUrl: string;
}): NodeJS.ProcessEnv {
  return {
    HOME: places.home,
    VIGIL_HOME: places.vigilHome,
    // The test's own core serves the hooks; one started by a hook after the test stopped it would outlive the test.
    VIGIL_NO_CORE: '1',
    ANTHROPIC_BASE_URL: places.modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // As root, --dangerously-skip-permissions is refused outside a sandbox unless told so.
    IS_SANDBOX: '1',
  };
}

/** The environment Gemini CLI needs to run offline against the scripted model. */
export function geminiEnvironment(places: {
  readonly home: string;
  readonly vigilHome: string;
  readonly modelUrl: string;
}): NodeJS.ProcessEnv {
  return {
    HOME: places.home,
    VIGIL_HOME: places.vigilHome,
    // The test's own core serves the hooks; one started by a hook after the test stopped it would outlive the test.
    VIGIL_NO_CORE: '1',
    GOOGLE_GEMINI_BASE_URL: places.modelUrl,
    GEMINI_API_KEY: 'dummy',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
  };
}

/** The name of the scripted model's provider in Codex's config.toml. */
export const codexScriptedProvider = 'vigil-scripted';

/**
 * A throwaway Codex home (HOME/.codex) whose config.toml sends Codex's model requests to the
 * scripted model (a `model_providers` entry on the Responses API) and turns off its plugin sync,
 * which would reach GitHub.
 */
export async function prepareCodexHome(home: string, modelUrl: string): Promise<void> {
  const folder = path.join(home, '.codex');
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'config.toml'),
    [
      'model = "gpt-scripted"',
      `model_provider = "${codexScriptedProvider}"`,
      '',
      '[features]',
      'plugins = false',
      '',
      `[model_providers.${codexScriptedProvider}]`,
      'name = "Vigil scripted model"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
}

/** The environment Codex CLI needs to run offline against the scripted model (its provider is in config.toml). */
export function codexEnvironment(places: { readonly home: string; readonly vigilHome: string }): NodeJS.ProcessEnv {
  // VIGIL_NO_CORE: the test's own core serves Vigil's MCP server; none is started that would outlive the test.
  return {
    HOME: places.home,
    CODEX_HOME: path.join(places.home, '.codex'),
    VIGIL_HOME: places.vigilHome,
    VIGIL_NO_CORE: '1',
  };
}
