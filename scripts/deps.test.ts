import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { areaGraph, layerViolations, stronglyConnected, twoWayPairs } from './deps.mjs'

/** A domain folder of the given files (path → text) in a fresh temporary directory. */
function domainOf(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'deps-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('npm run deps: the areas of the domain and their cycles', () => {
  const root = domainOf({
    'ledger/post.ts': "import { x } from '../kernel/ids.ts'",
    'kernel/ids.ts': 'export const x = 1',
    'orders/service.ts':
      "import { post } from '../ledger/post.ts'\nimport { a } from '../activity/feed.ts'",
    'orders/service.test.ts': "import { t } from '../events/anything.ts'",
    'activity/feed.ts':
      "import type { O } from '../orders/service.ts'\nimport { r } from '../cards/repository.ts'",
    'cards/repository.ts': "import { s } from '../orders/service.ts'",
    'events/anything.ts': 'export const t = 1',
  })
  const { edges, intoRepositories } = areaGraph(root)

  it('draws an edge per area imported, type imports included, tests left out', () => {
    expect([...edges.get('orders')!].sort()).toEqual(['activity', 'ledger'])
    expect([...edges.get('activity')!].sort()).toEqual(['cards', 'orders'])
    expect([...edges.get('events')!]).toEqual([])
    expect(intoRepositories).toEqual(['activity/feed.ts → cards/repository.ts'])
  })

  it('finds the cycle and the pairs that import each other', () => {
    expect(stronglyConnected(edges).filter((c) => c.length > 1)).toEqual([
      ['activity', 'cards', 'orders'],
    ])
    expect(twoWayPairs(edges)).toEqual(['activity ↔ orders'])
  })

  it('finds none in a graph that runs one way', () => {
    const layered = new Map([
      ['kernel', new Set<string>()],
      ['ledger', new Set(['kernel'])],
      ['orders', new Set(['ledger', 'kernel'])],
    ])
    expect(stronglyConnected(layered).every((c) => c.length === 1)).toBe(true)
    expect(twoWayPairs(layered)).toEqual([])
  })
})

describe('npm run deps --check: the layer table', () => {
  const layers: [string, string[]][] = [
    ['kernel', ['catalog']],
    ['ledger', ['ledger', 'feed']],
    ['money movement', ['orders']],
    ['read models', ['activity']],
  ]
  const { imports } = areaGraph(
    domainOf({
      'outbox.ts': "import { x } from './catalog/ids.ts'",
      'services.ts': "import { s } from './orders/service.ts'",
      'catalog/ids.ts': 'export const x = 1',
      'feed/store.ts': "import { x } from '../catalog/ids.ts'",
      'orders/service.ts':
        "import { i } from '../feed/store.ts'\nimport { a } from '../activity/feed.ts'",
      'orders/routes.ts': "import { r } from '../activity/page.ts'",
      'orders/service.test.ts': "import { t } from '../activity/anything.ts'",
      'activity/page.ts': "import { w } from '../orders/quote-routes.ts'",
      'activity/feed.ts': "import { i } from '../feed/store.ts'",
      'unplaced/x.ts': "import { i } from '../feed/store.ts'",
    }),
  )

  it('refuses an upward import, a lower file importing a routes file, an unplaced area and a kernel file importing an area', () => {
    expect(layerViolations(imports, layers).sort()).toEqual([
      'activity/page.ts → orders/quote-routes.ts: a routes file is composition, above every area',
      'orders/service.ts → activity/feed.ts: money movement imports read models, a higher layer',
      'outbox.ts → catalog/ids.ts: a shared kernel file imports an area',
      'unplaced/x.ts → feed/store.ts: unplaced has no layer (add it to LAYERS)',
    ])
  })

  it('lets routes files, the composition root and tests import anything, and areas import downward', () => {
    const fromComposition = imports.filter(({ file }) => /routes|services|test/.test(file))
    expect(fromComposition).toEqual([])
    expect(
      layerViolations(
        imports.filter(({ file }) => file.startsWith('feed/')),
        layers,
      ),
    ).toEqual([])
  })
})

describe('the repository', () => {
  it('runs one way: server/domain has no upward import, no cycle and no pair', () => {
    const { edges, imports } = areaGraph(resolve('server/domain'))
    expect(layerViolations(imports)).toEqual([])
    expect(stronglyConnected(edges).filter((c) => c.length > 1)).toEqual([])
    expect(twoWayPairs(edges)).toEqual([])
  })
})
