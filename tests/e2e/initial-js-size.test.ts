import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import { formatKb, initialJs } from '../support/initial-js.ts'

const BUDGET = 150 * 1024

test('the JavaScript a first visit needs stays within 150 KB gzipped', () => {
  const { files, totalGzip } = initialJs(resolve('dist'))
  console.log(
    `initial JS: ${formatKb(totalGzip)} gzipped (budget ${BUDGET / 1024} KB) — ` +
      files.map((file) => `${file.file} ${formatKb(file.gzip)}`).join(', '),
  )
  expect(files.length).toBeGreaterThan(0)
  expect(totalGzip).toBeLessThanOrEqual(BUDGET)
})
