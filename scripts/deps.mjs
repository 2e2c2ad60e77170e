// `npm run deps`: the import graph of the server's domain areas (one folder of
// server/domain each), the cycles among them and the pairs that import each
// other — the measure of issue 28's layers. Tests, fixtures and test support
// are left out: they may reach anywhere. Type-only imports count: a cycle of
// types is still a cycle a newcomer has to hold in their head.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const NOT_SHIPPED = /\.test\.ts$|test-support|fixtures/
const RELATIVE_IMPORT = /\bfrom '(\.[^']+)'/g

/**
 * The layers of server/domain, lowest first (docs/architecture.md "Layers"): an
 * area imports its own layer (without a cycle) and the layers below it, never
 * one above. A lower area that must make a higher one act writes an outbox
 * event, or is handed the behaviour by the composition root (services.ts).
 */
export const LAYERS = [
  ['kernel', ['catalog', 'location', 'rates', 'issuing']],
  ['identity', ['tenants', 'auth', 'otp', 'user', 'developer', 'kyc', 'lockdown']],
  ['ledger', ['ledger', 'feed']],
  ['accounts', ['wallets', 'addresses', 'fiat-accounts', 'cards', 'counterparties']],
  [
    'money movement',
    [
      'orders',
      'deposits',
      'card-transactions',
      'card-disputes',
      'transfers',
      'payment-requests',
      'auto-top-up',
      'schedules',
    ],
  ],
  [
    'read models and delivery',
    ['activity', 'transactions', 'events', 'statements', 'insights', 'proofs'],
  ],
  ['composition', ['sandbox']],
]

/**
 * Routes files are the composition layer whatever folder they sit in: they
 * wire an area's use cases to HTTP and may import any area. They are left out
 * of the area graph; a file of an area that imports one is an upward import.
 */
export const isComposition = (file) => /(^|[/-])(routes|plugin)\.ts$/.test(file)

/**
 * Every area (a folder under `root`) with the set of other areas its files
 * import, and the imports that reach into another area's repository.
 */
export function areaGraph(root) {
  const areas = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory())
  const edges = new Map(areas.map((area) => [area, new Set()]))
  const intoRepositories = []
  /** Every import of another area, as `{ file, target }` relative to `root`. */
  const imports = []
  const visit = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) visit(path)
      else if (name.endsWith('.ts') && !NOT_SHIPPED.test(path) && !isComposition(name)) scan(path)
    }
  }
  const scanShared = (file) => {
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = relative(root, resolve(dirname(file), match[1]))
      if (edges.has(target.split('/')[0])) imports.push({ file: relative(root, file), target })
    }
  }
  const scan = (file) => {
    const area = relative(root, file).split('/')[0]
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = relative(root, resolve(dirname(file), match[1]))
      const targetArea = target.split('/')[0]
      if (targetArea === area || !edges.has(targetArea)) continue
      imports.push({ file: relative(root, file), target })
      edges.get(area).add(targetArea)
      if (/\/repository(\.ts)?$/.test(target)) {
        intoRepositories.push(`${relative(root, file)} → ${target}`)
      }
    }
  }
  for (const area of areas) visit(join(root, area))
  // The shared files beside the areas (failure.ts, outbox.ts…) are kernel;
  // services.ts, the composition root, is left out like a routes file.
  for (const name of readdirSync(root)) {
    const path = join(root, name)
    if (name.endsWith('.ts') && name !== 'services.ts' && !NOT_SHIPPED.test(name)) {
      if (statSync(path).isFile()) scanShared(path)
    }
  }
  return { edges, intoRepositories, imports }
}

/**
 * The imports that break the layer table: into a higher layer, into a routes
 * file (composition), or from or into an area the table does not place.
 */
export function layerViolations(imports, layers = LAYERS) {
  const rank = new Map(layers.flatMap(([, areas], index) => areas.map((area) => [area, index])))
  const layerOf = (area) => layers[rank.get(area)][0]
  const found = []
  for (const { file, target } of imports) {
    const [from, to] = [file.split('/')[0], target.split('/')[0]]
    if (!file.includes('/')) {
      found.push(`${file} → ${target}: a shared kernel file imports an area`)
      continue
    }
    const unplaced = [from, to].filter((area) => !rank.has(area))
    if (unplaced.length > 0) {
      found.push(`${file} → ${target}: ${unplaced.join(', ')} has no layer (add it to LAYERS)`)
    } else if (isComposition(target)) {
      found.push(`${file} → ${target}: a routes file is composition, above every area`)
    } else if (rank.get(to) > rank.get(from)) {
      found.push(`${file} → ${target}: ${layerOf(from)} imports ${layerOf(to)}, a higher layer`)
    }
  }
  return found
}

/** The strongly connected components of a graph (Tarjan), largest first. */
export function stronglyConnected(edges) {
  let next = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  const connect = (node) => {
    index.set(node, next)
    low.set(node, next)
    next++
    stack.push(node)
    onStack.add(node)
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to)
        low.set(node, Math.min(low.get(node), low.get(to)))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    components.push(component.sort())
  }
  for (const node of edges.keys()) if (!index.has(node)) connect(node)
  return components.sort((a, b) => b.length - a.length)
}

/** Pairs of areas that import each other, each once ("a ↔ b", a before b). */
export function twoWayPairs(edges) {
  const pairs = []
  for (const [from, targets] of edges) {
    for (const to of targets)
      if (from < to && edges.get(to)?.has(from)) pairs.push(`${from} ↔ ${to}`)
  }
  return pairs.sort()
}

function main() {
  const root = resolve(
    process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'server/domain',
  )
  const { edges, intoRepositories, imports } = areaGraph(root)
  const cycles = stronglyConnected(edges).filter((component) => component.length > 1)
  const pairs = twoWayPairs(edges)
  console.log(`Areas under ${relative(process.cwd(), root) || '.'} and what each imports:\n`)
  const width = Math.max(...[...edges.keys()].map((area) => area.length))
  for (const [area, targets] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${area.padEnd(width)}  → ${[...targets].sort().join(', ') || '(nothing)'}`)
  }
  const inCycles = cycles.reduce((sum, component) => sum + component.length, 0)
  console.log(`\n${inCycles} of ${edges.size} areas sit in ${cycles.length} import cycle(s):`)
  for (const component of cycles) console.log(`  ${component.join(', ')}`)
  console.log(`\n${pairs.length} pair(s) import each other:`)
  for (const pair of pairs) console.log(`  ${pair}`)
  console.log(`\n${intoRepositories.length} import(s) reach into another area's repository.`)
  if (process.argv.includes('--list')) for (const line of intoRepositories) console.log(`  ${line}`)
  const violations = layerViolations(imports)
  console.log(`\n${violations.length} import(s) break the layer table:`)
  for (const line of violations) console.log(`  ${line}`)
  // `--check` (npm test): the graph must run one way, by the table.
  if (process.argv.includes('--check') && violations.length + cycles.length + pairs.length > 0) {
    console.error('\n✗ the domain\'s layers run both ways: see docs/architecture.md "Layers"')
    process.exitCode = 1
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
