import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { areaGraph, stronglyConnected, twoWayPairs } from './deps.mjs'

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
