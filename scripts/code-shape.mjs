// Two rules of docs/architecture.md a reviewer would otherwise check by eye, run as a unit
// test (scripts/code-shape.test.ts): routes files build no services (the composition root,
// server/domain/services.ts, builds each once), and no source file grows past 400 lines
// outside the named exemptions.
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** The longest a file may be: past it, a file holds more than one job a newcomer can name. */
export const MAX_LINES = 400

/** The folders whose .ts and .tsx files the rules read, from the repository's root. */
export const SOURCE_ROOTS = ['contract', 'server', 'src', 'sw', 'scripts', 'tests', 'bench']

/** A service, or a provider of one, built with `new`: the composition root's job alone. */
const BUILT_SERVICE = /\bnew\s+([A-Z]\w*Service|CardCrypto|CardProcessor|SeedStore)\s*\(/g

/** Every .ts and .tsx file under `roots` (relative to `base`), sorted, leaving out node_modules. */
export function sourceFiles(base, roots = SOURCE_ROOTS) {
  const files = []
  const visit = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) visit(path)
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(relative(base, path))
    }
  }
  for (const root of roots) {
    try {
      statSync(join(base, root))
    } catch {
      continue
    }
    visit(join(base, root))
  }
  return files.sort()
}

/** A routes file: `routes.ts`, or one of an area's several `*-routes.ts`. */
export const isRoutesFile = (path) => /(^|[/-])routes\.ts$/.test(path)

/** Each `new …Service(` (or card crypto, processor, seed store) in a routes file, as `file:line Name`. */
export function servicesBuiltInRoutes(files, read) {
  const found = []
  for (const file of files.filter(isRoutesFile)) {
    read(file)
      .split('\n')
      .forEach((line, index) => {
        for (const match of line.matchAll(BUILT_SERVICE))
          found.push(`${file}:${index + 1} ${match[1]}`)
      })
  }
  return found
}

/** Lines as an editor counts them: a final newline ends the last line, it does not start one. */
export const lineCount = (text) =>
  text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

/**
 * Files over `MAX_LINES` that no exemption names, and exemptions that no longer apply (the
 * file was split or removed): a stale entry would let the next file grow unseen.
 */
export function oversized(files, read, exemptions) {
  const over = []
  const exempted = new Set()
  for (const file of files) {
    const lines = lineCount(read(file))
    if (lines <= MAX_LINES) continue
    if (exemptions[file]) exempted.add(file)
    else over.push(`${file} (${lines} lines)`)
  }
  const stale = Object.keys(exemptions).filter((file) => !exempted.has(file))
  return { over, stale }
}
