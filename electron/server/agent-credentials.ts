import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { AppError } from '../../shared/errors';
import {
  errnoCode,
  type FileIdentity,
  fileSystemError,
  isSameIdentity,
  readFileIdentity,
  writeFileAtomic,
} from '../files';
import { FileLock } from '../locks';

/** Every agent credential starts with this, so a misplaced one is recognised (in logs, on /ws). */
export const agentCredentialPrefix = 'vigil_agent_';

/** A credential name: a client (`claude-code`, `hermes`) or a name the user chose. */
const namePattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const credentialSchema = lazySchema(() =>
  z.object({ name: z.string().regex(namePattern), secret: z.string().min(20), createdAt: z.string() }).strict(),
);
const fileSchema = lazySchema(() =>
  z.object({ version: z.literal(1), credentials: z.array(credentialSchema) }).strict(),
);

/** One stored agent credential. */
export type AgentCredential = z.infer<typeof credentialSchema>;

/** What `issue` returns: the credential, and whether it was made just now. */
export interface IssuedCredential {
  readonly name: string;
  readonly secret: string;
  readonly isNew: boolean;
}

/** Checks a credential name, naming the rule when it is broken. */
export function checkCredentialName(name: string): string {
  if (!namePattern.test(name)) {
    throw new AppError(
      'invalid_request',
      `"${name}" is not a credential name: use 1–64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit.`,
      {
        field: 'name',
      },
    );
  }
  return name;
}

function newSecret(): string {
  return `${agentCredentialPrefix}${randomBytes(32).toString('base64url')}`;
}

function isSameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The agents' credentials: per client, stable across restarts, in one file under $VIGIL_HOME
 * (mode 0600), revocable. Changes take a cross-process lock and replace the file atomically; a
 * running server notices them at the next request (it re-reads the file when its identity changes).
 * A file that cannot be read as credentials is never rewritten: every change refuses and says how to fix it.
 */
export class AgentCredentialStore {
  readonly #file: string;
  readonly #lock: FileLock;
  #cache: { readonly identity: FileIdentity | undefined; readonly credentials: readonly AgentCredential[] } | undefined;

  constructor(file: string) {
    this.#file = file;
    this.#lock = new FileLock({ path: `${file}.lock`, resource: 'the agent credentials', timeoutMs: 10_000 });
  }

  /** The file the credentials live in. */
  get file(): string {
    return this.#file;
  }

  /** The name of the agent credential `secret` is, or undefined (unknown, revoked, or the file unreadable). */
  async identify(secret: string): Promise<string | undefined> {
    if (!secret.startsWith(agentCredentialPrefix)) return undefined;
    let credentials: readonly AgentCredential[];
    try {
      credentials = await this.#current();
    } catch {
      return undefined;
    }
    let found: string | undefined;
    for (const credential of credentials) if (isSameSecret(secret, credential.secret)) found = credential.name;
    return found;
  }

  /** The stored credentials' names and creation times (never their secrets). */
  async list(): Promise<readonly Omit<AgentCredential, 'secret'>[]> {
    return (await this.#current()).map(({ name, createdAt }) => ({ name, createdAt }));
  }

  /** The credential of `name`, made (and stored) when there is none yet. */
  async issue(name: string): Promise<IssuedCredential> {
    checkCredentialName(name);
    const existing = (await this.#current()).find((credential) => credential.name === name);
    if (existing !== undefined) return { name, secret: existing.secret, isNew: false };
    return this.#lock.withLock(async () => {
      const credentials = await this.#load();
      const stored = credentials.find((credential) => credential.name === name);
      if (stored !== undefined) return { name, secret: stored.secret, isNew: false };
      const created: AgentCredential = { name, secret: newSecret(), createdAt: new Date().toISOString() };
      await this.#save([...credentials, created]);
      return { name, secret: created.secret, isNew: true };
    }, `issue ${name}`);
  }

  /** Revokes `name`'s credential at once (a running server refuses it from its next request); false when there was none. */
  async revoke(name: string): Promise<boolean> {
    checkCredentialName(name);
    return this.#lock.withLock(async () => {
      const credentials = await this.#load();
      const kept = credentials.filter((credential) => credential.name !== name);
      if (kept.length === credentials.length) return false;
      await this.#save(kept);
      return true;
    }, `revoke ${name}`);
  }

  async #current(): Promise<readonly AgentCredential[]> {
    const identity = await readFileIdentity(this.#file);
    if (this.#cache !== undefined && isSameIdentity(this.#cache.identity, identity)) return this.#cache.credentials;
    return this.#load();
  }

  async #load(): Promise<readonly AgentCredential[]> {
    const identity = await readFileIdentity(this.#file);
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw fileSystemError(error, 'read the agent credentials in', this.#file);
      this.#cache = { identity: undefined, credentials: [] };
      return [];
    }
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch {
      throw new AppError(
        'conflict',
        `${this.#file} is not a valid agent credentials file, so Vigil neither uses nor rewrites it. Move it aside; then run "vigil connect" again for each agent.`,
        { path: this.#file },
      );
    }
    this.#cache = { identity, credentials: parsed.credentials };
    return parsed.credentials;
  }

  async #save(credentials: readonly AgentCredential[]): Promise<void> {
    const text = `${JSON.stringify({ version: 1, credentials }, null, 2)}\n`;
    await writeFileAtomic(this.#file, text, { mode: 0o600 });
    this.#cache = undefined;
  }
}
