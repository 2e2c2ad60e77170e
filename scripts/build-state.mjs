import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What the built app is made from: a change to any of these makes dist/ stale. */
const SOURCES = [
  'src',
  'sw',
  'public',
  'contract',
  'index.html',
  'vite.config.ts',
  'manifest.webmanifest',
  'package-lock.json',
]

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** True when dist/ is missing or older than any of its sources. */
export function distIsStale(root = process.cwd()) {
  const built = join(root, 'dist', 'index.html')
  if (!existsSync(built) || !existsSync(join(root, 'dist', 'sw.js'))) return true
  const builtAt = statSync(built).mtimeMs
  return SOURCES.some((source) => newestMtime(join(root, source)) > builtAt)
}

/**
 * Builds the app for production. NODE_ENV is pinned: a build that inherits
 * NODE_ENV=test (vitest sets it) would be a development build — React's dev
 * bundle, import.meta.env.DEV true, no service worker registered.
 */
export async function buildApp() {
  const { bin, node } = await import('./run.mjs')
  const code = await node(bin('vite', 'bin/vite.js'), ['build', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (code !== 0) throw new Error(`vite build failed with exit code ${code}`)
}

/** Builds the app when dist/ is missing or older than its sources; says so when it does. */
export async function ensureBuilt(root = process.cwd()) {
  if (!distIsStale(root)) return
  console.log('Building the app (dist/ is missing or older than its sources)…')
  await buildApp()
}
