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
