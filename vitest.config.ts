import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import { englishParts } from './scripts/i18n-parts.ts'

/**
 * Three kinds of test, one runner:
 * - unit: pure rules and the app's modules (happy-dom for components),
 * - server: the real app through inject(), once on PGlite and once on PostgreSQL,
 * - e2e: the built product in Debian's Chromium (tests/e2e).
 */
export default defineConfig({
  // src/i18n/i18n.tsx imports the English catalogue as the build cuts it.
  plugins: [englishParts()],
  define: { __APP_VERSION__: JSON.stringify('0.0.0+test') },
  test: {
    // vitest's default leaves a core to itself (one worker on a 2-core CI); its
    // own process mostly waits, and so do the tests on their databases.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.{ts,tsx}',
            'sw/**/*.test.ts',
            'contract/**/*.test.ts',
            'scripts/*.test.ts',
            // Across the boundary: the app's code against the server's own, no database.
            'tests/integration/**/*.test.ts',
          ],
          environment: 'happy-dom',
          setupFiles: ['tests/support/unit-setup.ts'],
          // vitest's 5 s default is too tight for real 1–2 s app timers on a loaded 2-core CI.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server:pglite',
          include: ['server/**/*.test.ts'],
          // What only a server of its own shows (two processes on one database).
          exclude: [...configDefaults.exclude, 'server/**/*.postgres.test.ts'],
          environment: 'node',
          env: { TEST_DB_ENGINE: 'pglite' },
          globalSetup: ['tests/support/migrated-template.ts', 'tests/support/server-bundles.ts'],
          // Every file builds its own app on its own database, so files can share a worker's
          // modules: the server's import (seconds) is paid once per worker, not per file.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server:postgres',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB_ENGINE: 'postgres' },
          globalSetup: ['tests/support/postgres-cluster.ts', 'tests/support/server-bundles.ts'],
          // Every file builds its own app on its own database, so files can share a worker's
          // modules: the server's import (seconds) is paid once per worker, not per file.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/e2e-build.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // expect.poll's own default is 1 s: too short for a cold Chromium on 2 cores.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
})
