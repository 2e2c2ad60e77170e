import { beforeAll, expect, test } from 'vitest'
import { en } from '../../src/i18n/en.ts'
import { type DemoUrl, demoUrls, signInAsDemo, visit } from '../support/demo-routes.ts'
import { e2eSession } from '../support/e2e-server.ts'

/*
 * The sandbox demo's history as a person reads it (issue 14): an exchange is
 * one row in words with both of its sides, and card payments carry the
 * merchant's name. One browser and one server for the file.
 */

const session = e2eSession()

let urls: DemoUrl[]
beforeAll(async () => {
  // Places an exchange of 25 USDT into BTC, and finds the physical card.
  urls = await demoUrls(session.server.url)
})

test('the demo’s history reads in words: its exchange as one row, its card payments by merchant', async () => {
  const context = await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)

  // demoUrls placed an exchange of 25 USDT into BTC: home tells it as one row with both sides.
  await visit(page, '/')
  const recent = page.getByRole('region', { name: en['home.recentActivity'] })
  const exchange = recent.getByTestId('activity-row').filter({ hasText: 'Exchange USDT → BTC' })
  await exchange.first().waitFor({ timeout: 15_000 })
  expect(await exchange.count()).toBe(1)
  const row = await exchange.innerText()
  expect(row).toMatch(/\+0\.\d+\sBTC/)
  expect(row).toMatch(/−25\.\d+\sUSDT/)
  expect(await recent.innerText()).not.toMatch(/Withdrawal|Record type|Card provider/)

  // The physical card's page: its payments by the merchant's name, not "Card payment".
  const card = urls.find((route) => route.name === 'card')!
  await visit(page, card.url)
  const rows = page.getByTestId('activity-row')
  await rows.first().waitFor({ timeout: 15_000 })
  const titles = await rows.allInnerTexts()
  for (const merchant of ['Café Einstein', 'City Parking', 'Dussmann Bookshop']) {
    expect(
      titles.some((title) => title.includes(merchant)),
      merchant,
    ).toBe(true)
  }
  await context.close()
})
