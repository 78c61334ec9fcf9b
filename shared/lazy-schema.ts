import { z } from 'zod';

// Parse without compiling each object schema into a function first (zod's JIT): a one-shot command parses
// each schema once or a few times, and the first parse with the JIT cost ~3x the whole of it (measured in
// docs/benchmarks/cli-notes.md, "Module loading"). Set here, before any schema is built: zod reads it then.
z.config({ jitless: true });

/**
 * Where a lazy schema's traps send each operation: the schema, built on first use. Operations that
 * would tie the stand-in's own shape (a non-configurable property read through a descriptor) are
 * mirrored on it, as a Proxy's invariants demand.
 */
function forwardingHandler(real: () => object): ProxyHandler<object> {
  return {
    get: (_target, key): unknown => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    getOwnPropertyDescriptor: (target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      if (descriptor !== undefined && descriptor.configurable === false && !Object.hasOwn(target, key)) {
        Reflect.defineProperty(target, key, descriptor);
      }
      return descriptor;
    },
  };
}

/** Builders of the lazy schemas not yet built by `buildPendingSchemas` (a first use builds one there too). */
const unbuilt: Array<() => unknown> = [];

/**
 * Builds, a few at a time between other work (`nextTurn` waits for the next turn of the event loop), every lazy schema declared so far: a resident core calls it
 * once it serves, so that the first requests after its start do not each pay for building the schemas they
 * parse with (a one-shot command never calls it). A schema whose build fails is left to fail at its first
 * use, as it would have. Resolves to how many it went through without a failure.
 */
export async function buildPendingSchemas(nextTurn: () => Promise<void>, perSlice = 32): Promise<number> {
  let count = 0;
  while (unbuilt.length > 0) {
    for (const build of unbuilt.splice(0, perSlice)) {
      try {
        build();
        count += 1;
      } catch {
        // Left to its first use, which throws the same error where it can be reported.
      }
    }
    await nextTurn();
  }
  return count;
}

/**
 * A schema built on first use instead of at import: a one-shot `vigil` command loads the whole contract
 * but parses with a handful of its ~2,000 schemas, and building them all cost about half of its module
 * loading (docs/benchmarks/cli-notes.md, "Module loading"). The stand-in has the schema's own type, so
 * `z.infer<typeof x>`, `.parse`, `.shape`, `.extend` and nesting in other schemas work unchanged; zod
 * reads it through its properties. The metadata `.describe()` and `.meta()` attach is registered for the
 * stand-in too, so `z.toJSONSchema` finds it wherever the stand-in sits in a bigger schema.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  unbuilt.push(() => real());
  const real = (): T => {
    if (built === undefined) {
      built = build();
      const metadata = z.globalRegistry.has(built) ? z.globalRegistry.get(built) : undefined;
      if (metadata !== undefined) z.globalRegistry.add(stand, metadata);
    }
    return built;
  };
  const stand = new Proxy<object>({}, forwardingHandler(real)) as T;
  return stand;
}
