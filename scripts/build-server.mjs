// The server, built once into one ES module (build/server/main.mjs), so a start
// runs JavaScript instead of transpiling ~200 TypeScript files through tsx every
// time: our code (server/, contract/) bundled, every package left to Node.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

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

/** Bundles server/main.ts (esbuild, a fraction of a second). */
export async function buildServer(root = process.cwd()) {
  const { build } = await import('esbuild')
  const outfile = join(root, SERVER_BUNDLE)
  await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    // Where server/ (migrations, tenant seed) lies from the bundle: server/paths.ts.
    define: {
      SERVER_DIR_FROM_BUNDLE: JSON.stringify(
        `${relative(join(root, 'build', 'server'), join(root, 'server'))}/`,
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
