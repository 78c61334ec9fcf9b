import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Unit and integration tests: the core under Node, the renderer's components under happy-dom. */
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['electron/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Many tests start real processes (the CLI from source through tsx, git, workers): generous
          // bounds so a loaded CI machine does not fail them; a hang still fails.
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // A `vigil` a test starts by hand (not through childEnv) must not leave a background core
          // running either: commands work in-process unless a test opts in (VIGIL_NO_CORE=0).
          env: { VIGIL_NO_CORE: '1' },
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
