/** A small seeded generator (mulberry32) returning numbers in [0, 1), so a failing run can be replayed by its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The seed a randomized test runs with: `VIGIL_TEST_SEED` when set (to replay a failure), else `fallback`. */
export function testSeed(fallback: number): number {
  const given = process.env.VIGIL_TEST_SEED;
  return given === undefined || given === '' ? fallback : Number(given);
}
