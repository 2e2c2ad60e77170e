import type { Plugin } from 'vite'
import { en } from '../src/i18n/en.ts'
import { EN_PART_NAMES, partOf } from '../src/i18n/parts.ts'

/**
 * The English catalogue cut by src/i18n/parts.ts, as virtual modules:
 * `virtual:en-parts` holds the entry's keys and one loader per part (each a
 * literal dynamic import, which is what the bundler splits on);
 * `virtual:en-parts/<part>` holds that part's keys. en.ts is a dependency of
 * the Vite config that imports this plugin, so editing it restarts the dev
 * server with the new words.
 */
const ID = 'virtual:en-parts'
const RESOLVED = `\0${ID}`

export function englishParts(): Plugin {
  const keysOf = (part: string | undefined) =>
    Object.fromEntries(Object.entries(en).filter(([key]) => partOf(key) === part))
  return {
    name: 'en-parts',
    resolveId(id) {
      if (id === ID || id.startsWith(`${ID}/`)) return `\0${id}`
      return undefined
    },
    load(id) {
      if (id === RESOLVED) {
        const loaders = EN_PART_NAMES.map(
          (part) => `  ${JSON.stringify(part)}: () => import(${JSON.stringify(`${ID}/${part}`)}),`,
        )
        return [
          `export const entry = ${JSON.stringify(keysOf(undefined))}`,
          `export const loaders = {\n${loaders.join('\n')}\n}`,
        ].join('\n')
      }
      if (id.startsWith(`${RESOLVED}/`)) {
        const part = id.slice(RESOLVED.length + 1)
        if (!(EN_PART_NAMES as string[]).includes(part)) {
          this.error(`no part "${part}" in src/i18n/parts.ts`)
        }
        return `export default ${JSON.stringify(keysOf(part))}`
      }
      return undefined
    },
  }
}
