import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  isRoutesFile,
  lineCount,
  oversized,
  servicesBuiltInRoutes,
  sourceFiles,
} from './code-shape.mjs'

const REPO = join(import.meta.dirname, '..')
const readRepo = (file: string) => readFileSync(join(REPO, file), 'utf8')

const EXEMPT = 'exempt'
const TO_SPLIT = 'to be split'

/**
 * The files allowed past 400 lines. `exempt`: one job that is long by nature (the reason is in
 * docs/architecture.md, "How long a file may be"). `to be split`: a debt, named so it shrinks;
 * split one and remove its line (the test fails on a line that no longer applies).
 */
const EXEMPTIONS: Record<string, string> = {
  'src/i18n/en.ts': EXEMPT,
  'src/i18n/ru.ts': EXEMPT,
  'src/i18n/uk.ts': EXEMPT,
  'src/i18n/de.ts': EXEMPT,
  'src/i18n/es.ts': EXEMPT,
  'src/i18n/pt-br.ts': EXEMPT,
  'src/i18n/tr.ts': EXEMPT,
  'src/i18n/id.ts': EXEMPT,
  'src/i18n/fa.ts': EXEMPT,
  'src/i18n/ar.ts': EXEMPT,
  'server/infra/db/schema.ts': EXEMPT,
  'contract/events.ts': EXEMPT,
}

describe('the composition root builds every service: routes files build none', () => {
  it('finds a service, card crypto, processor or seed store built in a routes file', () => {
    const files: Record<string, string> = {
      'server/domain/a/routes.ts': 'const s = new WalletService(app.db)',
      'server/domain/b/sandbox-routes.ts':
        'const ok = new ProblemError(404)\nconst p = new CardProcessor(db, new CardCrypto(k))',
      'server/domain/c/routes.ts': 'const s = app.services.wallets\nconst at = new Date()',
      'server/domain/d/service.ts': 'const s = new WalletService(db)',
      'server/domain/e/router.ts': 'const s = new SeedStore(key)',
    }
    expect(servicesBuiltInRoutes(Object.keys(files), (file) => files[file] ?? '')).toEqual([
      'server/domain/a/routes.ts:1 WalletService',
      'server/domain/b/sandbox-routes.ts:2 CardProcessor',
      'server/domain/b/sandbox-routes.ts:2 CardCrypto',
    ])
  })

  it('knows a routes file by its name', () => {
    expect(['routes.ts', 'a/routes.ts', 'a/quote-routes.ts'].every(isRoutesFile)).toBe(true)
    expect(['a/router.ts', 'a/routes.test.ts', 'a/reroutes.ts'].some(isRoutesFile)).toBe(false)
  })

  it('holds for every routes file of the server', () => {
    expect(servicesBuiltInRoutes(sourceFiles(REPO, ['server']), readRepo)).toEqual([])
  })
})

describe('no file over 400 lines outside the named exemptions', () => {
  const long = `${'x\n'.repeat(401)}`

  it('counts lines as an editor does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb')]).toEqual([
      0, 1, 1, 2,
    ])
  })

  it('names a long file nobody exempted, and an exemption that no longer applies', () => {
    const files: Record<string, string> = {
      'src/long.tsx': long,
      'src/exempt.ts': long,
      'src/short.ts': 'x\n'.repeat(400),
      'src/split-already.ts': 'x\n',
    }
    const exemptions = { 'src/exempt.ts': EXEMPT, 'src/split-already.ts': TO_SPLIT }
    expect(oversized(Object.keys(files), (file) => files[file] ?? '', exemptions)).toEqual({
      over: ['src/long.tsx (401 lines)'],
      stale: ['src/split-already.ts'],
    })
  })

  it('holds for the repository', () => {
    expect(oversized(sourceFiles(REPO), readRepo, EXEMPTIONS)).toEqual({ over: [], stale: [] })
  })
})
