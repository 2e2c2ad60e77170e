import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { en } from './en.ts'
import { EN_PART_NAMES, type EnPart, partOf } from './parts.ts'

/*
 * Every English key a screen can show is in memory when it shows it (issue
 * 16): the source is walked from the web entry (src/app/main.tsx) along its
 * imports. A module reached by static imports runs with the parts its chunk
 * was loaded with: the entry's words only, for the first download; a route's
 * `withMessages(import(…), parts…)` adds 'errors' and its parts for
 * everything that chunk imports; a plain `import(…)` inside a chunk keeps the
 * parts of the chunk that asks for it. A key a module names (a literal, or a
 * template `prefix.${…}` standing for every key under the prefix) must ship
 * in the entry or in one of those parts, on every way the module is reached.
 * Without this, a key of a new prefix listed with the wrong part shows
 * nothing until its part is fetched.
 */

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = resolve(SRC, 'app/main.tsx')
const KEYS = Object.keys(en)
/** The catalogues and the table of parts define keys; they show none. */
const CATALOGUES = ['en.ts', 'ru.ts', 'parts.ts'].map((name) => resolve(SRC, 'i18n', name))

interface Module {
  statics: string[]
  dynamics: { file: string; parts: EnPart[] | undefined }[]
  keys: string[]
}

const modules = new Map<string, Module>()

function read(file: string): Module {
  const known = modules.get(file)
  if (known) return known
  const source = readFileSync(file, 'utf8')
    // Comments name keys and imports that are not there.
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
  const at = (specifier: string) => resolve(dirname(file), specifier)
  const statics = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'"`;]*?from\s+'(\.[^']+\.tsx?)'/gm),
    ...source.matchAll(/^\s*import\s+'(\.[^']+\.tsx?)'/gm),
  ].map((match) => at(match[1]!))
  const dynamics: Module['dynamics'] = []
  const wrapped = /withMessages\(\s*import\('(\.[^']+)'\)((?:\s*,\s*'[^']+')*)\s*,?\s*\)/g
  for (const match of source.matchAll(wrapped)) {
    const parts = [...match[2]!.matchAll(/'([^']+)'/g)].map((part) => part[1]! as EnPart)
    dynamics.push({ file: at(match[1]!), parts })
  }
  for (const match of source.replace(wrapped, '').matchAll(/import\('(\.[^']+\.tsx?)'\)/g)) {
    dynamics.push({ file: at(match[1]!), parts: undefined })
  }
  const keys = new Set<string>()
  if (CATALOGUES.includes(file)) return remember(file, { statics, dynamics, keys: [] })
  for (const match of source.matchAll(/'([A-Za-z][\w-]*(?:\.[\w-]+)+)'/g)) {
    if (match[1]! in en) keys.add(match[1]!)
  }
  for (const match of source.matchAll(/`([A-Za-z][\w-]*(?:\.[\w-]+)*\.)\$\{/g)) {
    for (const key of KEYS) if (key.startsWith(match[1]!)) keys.add(key)
  }
  return remember(file, { statics, dynamics, keys: [...keys] })
}

function remember(file: string, module: Module) {
  modules.set(file, module)
  return module
}

/** Keys a module shows that its chunk did not load, with the way it was reached. */
function walk() {
  const missing: string[] = []
  const seen = new Set<string>()
  const queue: { file: string; parts: Set<EnPart>; via: string }[] = [
    { file: ENTRY, parts: new Set(), via: 'entry' },
  ]
  while (queue.length > 0) {
    const { file, parts, via } = queue.shift()!
    const id = `${file}|${[...parts].sort().join(',')}`
    if (seen.has(id)) continue
    seen.add(id)
    const module = read(file)
    const name = file.slice(SRC.length + 1)
    for (const key of module.keys) {
      const part = partOf(key)
      if (part && !parts.has(part)) missing.push(`${name}: ${key} (part "${part}"; ${via})`)
    }
    for (const next of module.statics) queue.push({ file: next, parts, via })
    for (const next of module.dynamics) {
      const loaded = next.parts ? new Set([...parts, 'errors' as const, ...next.parts]) : parts
      const chunk = next.file.slice(SRC.length + 1)
      queue.push({ file: next.file, parts: loaded, via: `${chunk} [${[...loaded].join(', ')}]` })
    }
  }
  return { missing, reached: new Set([...seen].map((id) => id.split('|')[0]!)) }
}

describe('English parts against the screens that show them', () => {
  const { missing, reached } = walk()

  it('walks the whole app: every screen of the router and every part is reached', () => {
    expect(reached.size).toBeGreaterThan(150)
    for (const screen of [
      'features/notifications/notifications-page.tsx',
      'features/security/security-page.tsx',
      'features/security/step-up-dialog.tsx',
      'features/cards/card-page.tsx',
      'app/home-page.tsx',
    ]) {
      expect(reached.has(resolve(SRC, screen)), screen).toBe(true)
    }
    const loaded = new Set(
      [...modules.values()].flatMap((module) =>
        module.dynamics.flatMap((next) => next.parts ?? []),
      ),
    )
    expect([...loaded].sort()).toEqual(EN_PART_NAMES.filter((part) => part !== 'errors').sort())
  })

  it('every key a module shows ships in the entry or in a part its chunk loads', () => {
    expect(missing).toEqual([])
  })

  it('the shell’s own words ship in the entry: the bell and its unread count', () => {
    expect(partOf('notifications.bell')).toBeUndefined()
    expect(partOf('notifications.bellUnread')).toBeUndefined()
    expect(partOf('notifications.title')).toBe('notifications')
  })
})
