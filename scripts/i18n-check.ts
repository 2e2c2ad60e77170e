/**
 * `npx tsx scripts/i18n-check.ts <catalogue.ts> <language>`: what a catalogue
 * still lacks against English (src/i18n/catalogue-check.ts), one line each;
 * exits 1 while anything does. For translators between test runs.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { catalogueProblems } from '../src/i18n/catalogue-check.ts'
import { en } from '../src/i18n/en.ts'

const [file, language] = process.argv.slice(2)
if (!file || !language) {
  console.error('usage: npx tsx scripts/i18n-check.ts <catalogue.ts> <language>')
  process.exit(2)
}
const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>
const catalogue = Object.values(module).find((value) => typeof value === 'object') as
  | Record<string, string>
  | undefined
if (!catalogue) {
  console.error(`${file} exports no catalogue object`)
  process.exit(2)
}
const problems = catalogueProblems(en, catalogue, language)
const same = Object.keys(en).filter(
  (key) =>
    catalogue[key] === (en as Record<string, string>)[key] &&
    /[a-z]{4,}/.test(catalogue[key] ?? ''),
)
for (const problem of problems) console.log(problem)
console.log(
  `${problems.length} problem(s); ${Object.keys(catalogue).length} of ${Object.keys(en).length} keys; ${same.length} read exactly as English (check each is meant: ${same.slice(0, 12).join(', ')}${same.length > 12 ? ', …' : ''})`,
)
process.exit(problems.length > 0 ? 1 : 0)
