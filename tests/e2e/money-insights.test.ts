import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { en } from '../../src/i18n/en.ts'
import { signInAsDemo, visit } from '../support/demo-routes.ts'
import {
  personalWalletUuid,
  readPersistedQueryKeys,
  waitForServiceWorkerControl,
} from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'
import { setOffline } from '../support/offline.ts'

/*
 * Issue 31 in the browser, on the sandbox demo's five weeks: a statement of
 * the personal wallet asked for, followed, downloaded and verified by its
 * code; the Insights screen; a search with a filter; amounts hidden with one
 * tap; and, offline, Insights and a search read from what the device kept.
 * One browser and one server for the file.
 */

const session = e2eSession()

test('a statement of the demo wallet: asked for, its progress, downloaded, verified by its code', async () => {
  const context = await session.newContext({ locale: 'en-US', acceptDownloads: true })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  const wallet = await personalWalletUuid(page)
  await visit(page, `/wallets/${wallet}`)
  await page.getByRole('link', { name: new RegExp(`^${en['wallets.statement']}`) }).click()
  await page.getByRole('heading', { name: en['statements.title'] }).waitFor()
  // The demo's five weeks reach into last month: the month chosen first.
  await page.getByRole('radio', { name: en['statements.formats.pdf'] }).check()
  await page.getByRole('button', { name: en['statements.create'] }).click()
  const progress = page.getByTestId('statement-progress')
  await progress.waitFor()
  await page
    .getByRole('heading', { name: en['statements.status.ready'] })
    .waitFor({ timeout: 30_000 })

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: en['statements.download'] }).click(),
  ])
  const file = await readFile((await download.path())!)
  expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  expect(download.suggestedFilename()).toMatch(
    /^statement-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-[0-9A-Z]{12}\.pdf$/,
  )

  const code = /([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(await progress.innerText())![1]!
  const verified = await fetch(`${session.server.url}/api/statements/verify/${code.toLowerCase()}`)
  expect(verified.status).toBe(200)
  const answer = (await verified.json()) as Record<string, string>
  expect(Object.keys(answer).sort()).toEqual([
    'account_last4',
    'code',
    'from',
    'holder_initials',
    'sha256',
    'to',
  ])
  expect(answer).toMatchObject({
    holder_initials: 'M. W.',
    sha256: createHash('sha256').update(file).digest('hex'),
  })
})

test('Insights shows the month’s spending by category; Activity finds a declined payment by status', async () => {
  const context = await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await visit(page, '/insights')
  await page.getByRole('heading', { name: en['insights.spending'] }).waitFor()
  await page.getByTestId('insights-spending').waitFor()
  expect(await page.getByTestId('insights-spending').innerText()).toMatch(/€\d/)
  await page.getByTestId('insights-bars').waitFor()
  expect(await page.locator('canvas[role=img]').count()).toBeGreaterThan(1)

  await visit(page, '/activity')
  await page.getByRole('button', { name: en['activity.filters.open'], exact: true }).click()
  const sheet = page.getByRole('dialog', { name: en['activity.filters.title'] })
  await sheet.getByRole('radio', { name: en['activity.status.declined'] }).check()
  await sheet.getByRole('button', { name: en['activity.filters.done'] }).click()
  await page
    .getByRole('button', { name: `Remove the filter ${en['activity.status.declined']}` })
    .waitFor()
  const rows = page.getByTestId('activity-row')
  await rows.first().waitFor()
  const texts = await rows.allInnerTexts()
  expect(texts.length).toBeGreaterThan(0)
  expect(texts.every((text) => text.includes(en['activity.status.declined']))).toBe(true)
})

test('a card payment’s detail gives its receipt, a PDF to keep', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    serviceWorkers: 'block',
    acceptDownloads: true,
  })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await visit(page, '/activity')
  const payment = page.getByTestId('activity-row').filter({ hasText: 'Café Einstein' }).first()
  await payment.waitFor({ timeout: 15_000 })
  await payment.click()
  await page.getByRole('heading', { name: en['activity.receipt.title'] }).waitFor()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: en['activity.receipt.download'] }).click(),
  ])
  const file = await readFile((await download.path())!)
  expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  expect(download.suggestedFilename()).toMatch(/\.pdf$/)
  expect(await page.getByText(en['activity.receipt.failed']).count()).toBe(0)
})

test('one tap hides every amount: home shows no digit of money, and stays so after a reload', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    serviceWorkers: 'block',
    viewport: { width: 390, height: 844 },
  })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await page.getByTestId('total-balance').waitFor()
  expect(await page.getByTestId('total-balance').innerText()).toMatch(/\d/)
  await page.getByRole('button', { name: en['amounts.hide'] }).first().click()
  const amounts = async () =>
    page.evaluate(() =>
      [
        ...document.querySelectorAll(
          '[data-testid=total-balance], [data-testid=activity-row] .activity-amount, .balance-amounts',
        ),
      ].map((element) => element.textContent ?? ''),
    )
  await page.getByTestId('total-balance').filter({ hasText: '•••' }).waitFor()
  for (const text of await amounts()) expect(text).not.toMatch(/\d/)
  await page.reload()
  await page.getByTestId('total-balance').filter({ hasText: '•••' }).waitFor()
  for (const text of await amounts()) expect(text).not.toMatch(/\d/)
})

test('offline, Insights shows what it last read and a search answers from the kept feed, saying so', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await waitForServiceWorkerControl(page)
  await visit(page, '/activity')
  const rows = page.getByTestId('activity-row')
  await rows.first().waitFor()
  const title = await rows.first().locator('.activity-row-title').innerText()
  await visit(page, '/insights')
  await page.getByTestId('insights-spending').waitFor()
  const spending = await page.getByTestId('insights-spending').innerText()
  // Writes are throttled: wait until both screens' answers are on disk.
  await expect
    .poll(async () => (await readPersistedQueryKeys(page)).map((key) => JSON.stringify(key)), {
      timeout: 10_000,
    })
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\["insights","spending"/),
        expect.stringMatching(/^\["activity"/),
      ]),
    )

  await setOffline(context, true)
  await page.reload()
  await page.getByText(en['insights.offline']).waitFor()
  await page.getByTestId('insights-spending').waitFor()
  expect(await page.getByTestId('insights-spending').innerText()).toBe(spending)

  await visit(page, '/activity')
  await page.getByRole('searchbox', { name: en['activity.search.label'] }).fill(title)
  const results = page.getByTestId('activity-offline-results')
  await results.getByText(en['activity.offlineSearch']).waitFor()
  const found = await results.getByTestId('activity-row').allInnerTexts()
  expect(found.length).toBeGreaterThan(0)
  expect(found.every((text) => text.toLowerCase().includes(title.toLowerCase()))).toBe(true)
})
