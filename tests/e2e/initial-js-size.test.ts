import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import { formatKb, initialJs } from '../support/initial-js.ts'

const BUDGET = 100 * 1024

test('the JavaScript a first visit needs stays within 100 KB gzipped (issue 16)', () => {
  const { files, totalGzip } = initialJs(resolve('dist'))
  console.log(
    `initial JS: ${formatKb(totalGzip)} gzipped (budget ${BUDGET / 1024} KB) — ` +
      files.map((file) => `${file.file} ${formatKb(file.gzip)}`).join(', '),
  )
  expect(files.length).toBeGreaterThan(0)
  expect(totalGzip).toBeLessThanOrEqual(BUDGET)
})

/**
 * Strings only @telegram-apps/sdk (and its bridge) contain: method names it
 * posts to Telegram. The app's own detection (src/telegram/launch.ts) has
 * none of them — it does name the host (`TelegramWebviewProxy`), to check a
 * Telegram client is there, so that name is no marker.
 */
const SDK_MARKERS = ['web_app_open_popup', 'web_app_setup_main_button', 'web_app_request_theme']
const hasSdk = (code: string) => SDK_MARKERS.some((marker) => code.includes(marker))

test('the web entry carries none of the Telegram SDK: it is a lazy chunk, loaded in Telegram only', () => {
  const dist = resolve('dist')
  const initial = initialJs(dist).files.map((file) => file.file)
  const withSdk = initial.filter((file) => hasSdk(readFileSync(join(dist, file), 'utf8')))
  expect(withSdk).toEqual([])

  // The markers do find it where it is: in a chunk the first visit does not load.
  const lazy = readdirSync(join(dist, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`)
    .filter((file) => !initial.includes(file))
    .filter((file) => hasSdk(readFileSync(join(dist, file), 'utf8')))
  expect(lazy.length).toBeGreaterThan(0)
})
