import type { Plugin } from 'vite'
import { CATALOGUES } from '../src/i18n/catalogues.ts'
import { en } from '../src/i18n/en.ts'
import { EN_PART_NAMES, partOf } from '../src/i18n/parts.ts'
import { messagesModule } from './compile-messages.ts'

/**
 * The catalogues as virtual modules, each compiled from ICU MessageFormat
 * (compile-messages.ts). English is cut by src/i18n/parts.ts:
 * `virtual:en-parts` holds the entry's keys and one loader per part (each a
 * literal dynamic import, which is what the bundler splits on);
 * `virtual:en-parts/<part>` holds that part's keys. Every other language is
 * `virtual:catalogue/<language>`, one chunk. The catalogues are dependencies
 * of the Vite config that imports this plugin, so editing one restarts the
 * dev server with the new words.
 */
const ID = 'virtual:en-parts'
const RESOLVED = `\0${ID}`
const CATALOGUE = 'virtual:catalogue/'

export function englishParts(): Plugin {
  const keysOf = (part: string | undefined) =>
    Object.fromEntries(Object.entries(en).filter(([key]) => partOf(key) === part))
  return {
    name: 'en-parts',
    resolveId(id) {
      if (id === ID || id.startsWith(`${ID}/`) || id.startsWith(CATALOGUE)) return `\0${id}`
      return undefined
    },
    load(id) {
      if (id === RESOLVED) {
        const loaders = EN_PART_NAMES.map(
          (part) => `  ${JSON.stringify(part)}: () => import(${JSON.stringify(`${ID}/${part}`)}),`,
        )
        return [
          messagesModule(keysOf(undefined), 'en').replace('export default', 'export const entry ='),
          `export const loaders = {\n${loaders.join('\n')}\n}`,
        ].join('\n')
      }
      if (id.startsWith(`${RESOLVED}/`)) {
        const part = id.slice(RESOLVED.length + 1)
        if (!(EN_PART_NAMES as string[]).includes(part)) {
          this.error(`no part "${part}" in src/i18n/parts.ts`)
        }
        return messagesModule(keysOf(part), 'en')
      }
      if (id.startsWith(`\0${CATALOGUE}`)) {
        const language = id.slice(CATALOGUE.length + 1)
        const messages = CATALOGUES[language as keyof typeof CATALOGUES]
        if (!messages) this.error(`no catalogue "${language}" in src/i18n/catalogues.ts`)
        return messagesModule(messages, language)
      }
      return undefined
    },
  }
}
