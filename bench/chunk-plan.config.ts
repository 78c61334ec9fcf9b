import config from '../electron.vite.config';

/**
 * The main build alone (the `vigil` CLI, the core, the workers) into VIGIL_BENCH_OUT_DIR, with the
 * chunk plan (scripts/build/chunk-plan.ts) or, when VIGIL_BENCH_CHUNK_PLAN is `off`, without it
 * (the bundler's own splitting): what bench/libraries-chunks.ts compares.
 */
const main = config.main ?? {};
const build = main.build ?? {};
// eslint-disable-next-line @typescript-eslint/no-deprecated -- electron.vite.config.ts sets rollupOptions; this reads them back
const rollupOptions = build.rollupOptions ?? {};
const output = Array.isArray(rollupOptions.output) ? {} : (rollupOptions.output ?? {});
const { codeSplitting, ...withoutPlan } = output as typeof output & { codeSplitting?: unknown };
const isPlanned = process.env['VIGIL_BENCH_CHUNK_PLAN'] !== 'off';

export default {
  main: {
    ...main,
    build: {
      ...build,
      outDir: process.env['VIGIL_BENCH_OUT_DIR'] ?? 'out-bench/main',
      rollupOptions: { ...rollupOptions, output: isPlanned ? { ...withoutPlan, codeSplitting } : withoutPlan },
    },
  },
};
