import Module, { createRequire } from 'node:module';
import type * as EngineModule from '@anthropic-ai/sandbox-runtime';

/**
 * Imports the sandbox engine (@anthropic-ai/sandbox-runtime) without loading node-forge, its
 * pure-JS TLS library, until something really uses it. The engine imports node-forge at the top of
 * its TLS-interception modules (mitm-ca.js, mitm-leaf.js), which every entry point pulls in, and
 * only calls it when `network.tlsTerminate` or `network.mitmProxy` is configured: Vigil configures
 * neither, so a one-shot sandboxed command paid 40–70 ms of CPU for a library it never ran.
 *
 * How: node-forge is CommonJS, and Node's loader takes an ES import of a CommonJS file from the
 * require cache when the file is there. Before the engine loads, the cache gets a stand-in for
 * node-forge: every value read from it while the engine's modules evaluate (`const { pki } =
 * forge`, `pki.getTBSCertificate`, `asn1.Class`) is a deferred reference, and the first read after
 * that, a call or a `new`, loads the real node-forge and answers from it. So TLS interception,
 * were it configured, would work unchanged, only loading node-forge when first used. The engine's
 * layout this relies on is checked by engine-import.test.ts (pinned to the engine's version).
 */

type Engine = typeof EngineModule;

/** Where the engine's own `import 'node-forge'` resolves to. */
function forgeFile(): string | undefined {
  try {
    const fromHere = createRequire(import.meta.url);
    return createRequire(fromHere.resolve('@anthropic-ai/sandbox-runtime')).resolve('node-forge');
  } catch {
    return undefined;
  }
}

/** The stand-in's state: the real library once loaded, and whether the engine's modules are still evaluating. */
interface Deferred {
  real?: Record<PropertyKey, unknown>;
  isEvaluating: boolean;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown>)[key], root);
}

/** A reference to `forge.<path>`: deferred while the engine evaluates, the real value (loaded on demand) after. */
function reference(deferred: Deferred, load: () => unknown, path: readonly PropertyKey[]): unknown {
  const resolve = (): unknown => valueAt(load(), path);
  return new Proxy(function deferredForge() {}, {
    get: (_target, key) => {
      if (deferred.isEvaluating && typeof key === 'string') return reference(deferred, load, [...path, key]);
      return Reflect.get(resolve() as object, key) as unknown;
    },
    // While the engine evaluates, the stand-in has no own properties (Node's loader looks for named exports).
    has: (target, key) => (deferred.isEvaluating ? Reflect.has(target, key) : Reflect.has(resolve() as object, key)),
    ownKeys: (target) => [
      ...new Set([...Reflect.ownKeys(target), ...(deferred.isEvaluating ? [] : Reflect.ownKeys(resolve() as object))]),
    ],
    getOwnPropertyDescriptor: (target, key) => {
      const own = Reflect.getOwnPropertyDescriptor(target, key);
      if (deferred.isEvaluating || own?.configurable === false) return own;
      const descriptor = Reflect.getOwnPropertyDescriptor(resolve() as object, key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    apply: (_target, self, args: unknown[]) =>
      Reflect.apply(
        resolve() as (...values: unknown[]) => unknown,
        path.length > 1 ? valueAt(load(), path.slice(0, -1)) : self,
        args,
      ),
    construct: (_target, args: unknown[]) => Reflect.construct(resolve() as new (...values: unknown[]) => object, args),
  });
}

/** Puts the stand-in in the require cache; false when node-forge is already loaded or cannot be found. */
function deferForge(file: string, deferred: Deferred): boolean {
  const cache = (Module as unknown as { _cache: Record<string, Module | undefined> })._cache;
  if (cache[file] !== undefined) return false;
  const standIn = new Module(file);
  const load = (): unknown => {
    if (deferred.real === undefined) {
      Reflect.deleteProperty(cache, file);
      deferred.real = createRequire(file)(file) as Record<PropertyKey, unknown>;
    }
    return deferred.real;
  };
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = reference(deferred, load, []);
  cache[file] = standIn;
  return true;
}

let imported: Promise<Engine> | undefined;

/** The sandbox engine's module, loaded once per process, node-forge deferred to its first real use. */
export function importEngine(): Promise<Engine> {
  imported ??= (async () => {
    const file = forgeFile();
    const deferred: Deferred = { isEvaluating: true };
    if (file !== undefined) deferForge(file, deferred);
    try {
      return await import('@anthropic-ai/sandbox-runtime');
    } finally {
      deferred.isEvaluating = false;
    }
  })();
  // A failed import is tried again by the next caller (node-forge, if still deferred, then loads for real at once).
  imported.catch(() => {
    imported = undefined;
  });
  return imported;
}
