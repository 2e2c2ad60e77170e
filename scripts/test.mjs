// `npm test`: types, lint, the API document, then every test project. Server tests run on
// PGlite and on a real PostgreSQL; e2e runs last, alone, against the built app.
// Ends with one line "Tests: N passed, N failed" counted over all projects.
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from './build-state.mjs'
import { bin, node } from './run.mjs'

const tsc = bin('typescript', 'bin/tsc')
const vitest = bin('vitest', 'vitest.mjs')
const results = join(tmpdir(), `vitest-${process.pid}`)
const apiDocument = join(tmpdir(), `openapi-${process.pid}.json`)

const steps = [
  ['types (app)', tsc, ['--noEmit', '-p', 'tsconfig.json']],
  ['types (service worker)', tsc, ['--noEmit', '-p', 'tsconfig.sw.json']],
  ['types (server, tests)', tsc, ['--noEmit', '-p', 'tsconfig.node.json']],
  ['lint and format', bin('@biomejs/biome', 'bin/biome'), ['check', '.']],
  // The domain's areas import downward only, by the layer table (docs/architecture.md).
  ['layers', 'scripts/deps.mjs', ['--check']],
  // The document a client is generated from, as the app serves it, by Redocly's rules.
  ['API document (write)', bin('tsx', 'dist/cli.mjs'), ['scripts/openapi.ts', apiDocument]],
  ['API document (lint)', bin('@redocly/cli', 'bin/cli.js'), ['lint', apiDocument]],
]
const suites = [
  [
    'unit and server',
    ['--project', 'unit', '--project', 'server:pglite', '--project', 'server:postgres'],
  ],
  ['browser e2e', ['--project', 'e2e']],
]

let failedStep = false
for (const [name, script, args] of steps) {
  console.log(`\n▶ ${name}`)
  if ((await node(script, args)) !== 0) {
    console.error(`✗ ${name} failed`)
    failedStep = true
  }
}
rmSync(apiDocument, { force: true })

// Always a fresh production build: the e2e tests and the size budget judge
// what these sources build to, never a leftover dist/.
console.log('\n▶ build')
await buildApp().catch((error) => {
  console.error(`✗ ${error.message}`)
  failedStep = true
})

let passed = 0
let failed = 0
for (const [index, [name, args]] of suites.entries()) {
  console.log(`\n▶ ${name}`)
  const output = `${results}-${index}.json`
  const code = await node(vitest, [
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ])
  try {
    const report = JSON.parse(readFileSync(output, 'utf8'))
    passed += report.numPassedTests
    failed += report.numFailedTests
    rmSync(output, { force: true })
  } catch {
    failed += 1 // The runner itself broke before reporting.
  }
  if (code !== 0 && failed === 0) failed += 1
}

console.log(`\nTests: ${passed} passed, ${failed} failed`)
process.exit(failedStep || failed > 0 ? 1 : 0)
