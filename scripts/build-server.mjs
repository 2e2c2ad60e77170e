// The server, built once into one ES module (build/server/main.mjs), so a start
// reads one file of JavaScript instead of transpiling ~200 TypeScript files
// through tsx and resolving ~2 000 package modules one by one: our code and the
// pure-JavaScript packages bundled; what must stay a package of its own, external.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/** What the server bundle is made from: a change to any of these makes it stale. */
const SOURCES = ['server', 'contract', 'package-lock.json']
export const SERVER_BUNDLE = join('build', 'server', 'main.mjs')

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry.endsWith('.test.ts')) continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** True when the bundle is missing or older than any of its sources. */
export function serverIsStale(root = process.cwd()) {
  const bundle = join(root, SERVER_BUNDLE)
  if (!existsSync(bundle)) return true
  const builtAt = statSync(bundle).mtimeMs
  return SOURCES.some((source) => newestMtime(join(root, source)) > builtAt)
}

/**
 * Packages left to Node, each for a reason: PGlite loads its WebAssembly and
 * data files from beside its own module; argon2 is a native addon; pino starts
 * worker threads from its own files (transports); swagger-ui and static serve
 * files from their package directories; pg-native is optional and absent;
 * pdfkit reads its font metrics from beside its own module.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pg-native',
  'pdfkit',
]

/** Bundles server/main.ts (esbuild, about a second). */
export async function buildServer(root = process.cwd(), outfile = join(root, SERVER_BUNDLE)) {
  const { build } = await import('esbuild')
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require(): give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // Not loaded at start (NODE_OPTIONS=--enable-source-maps maps stack traces to the sources).
    sourcemap: true,
    logLevel: 'warning',
    // Where server/ (migrations, tenant seed) lies from the bundle: server/paths.ts.
    define: {
      SERVER_DIR_FROM_BUNDLE: JSON.stringify(
        `${relative(dirname(outfile), join(root, 'server'))}/`,
      ),
    },
  })
}

/** Builds the server when its bundle is missing or stale; says so when it does. */
export async function ensureServerBuilt(root = process.cwd()) {
  if (!serverIsStale(root)) return
  console.log('Building the server (build/server/ is missing or older than its sources)…')
  await buildServer(root)
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer()
