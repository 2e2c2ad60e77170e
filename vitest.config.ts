import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import { englishParts } from './scripts/i18n-parts.ts'

/**
 * Server tests whose answers do not depend on the engine run once, on PGlite
 * (what `npm start` runs, and present on every machine): a file that builds
 * no app and opens no database (pure rules, providers, config), the typed
 * client compiled from the OpenAPI document, and the fuzz of every operation
 * with what its schema refuses (both engines are the same PostgreSQL behind
 * the same queries; how each driver's errors surface is tested on both).
 */
const DATABASE = /\b(createTestApp|createTestAppOn|createTestDatabase|provision|describeServer)\b/
const ENGINE_FREE = [
  ...readdirSync('server', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `server/${file}`)
    .filter((file) => !DATABASE.test(readFileSync(file, 'utf8'))),
  'server/openapi-client.test.ts',
  'server/openapi-fuzz.test.ts',
]

/**
 * Three kinds of test, one runner:
 * - unit: pure rules and the app's modules (happy-dom for components),
 * - server: the real app through inject(), once on PGlite and once on PostgreSQL
 *   (what cannot depend on the engine once: ENGINE_FREE),
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
          exclude: [...configDefaults.exclude, ...ENGINE_FREE],
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
