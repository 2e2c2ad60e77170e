import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { ar } from '../../src/i18n/ar.ts'
import { VIEWPORTS } from '../support/demo-routes.ts'
import { expectSignedInAs, PASSWORD, uniqueEmail } from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'

/*
 * Issue 34, right to left: a person whose browser reads Arabic signs up and
 * reaches home with the document, the navigation and the amounts the right
 * way round, and not one of home's English words left on it.
 */

const session = e2eSession()

/**
 * A browser that reads Arabic, signed up through the sign-up screen as the
 * person reads it (every label from the ar catalogue), on home.
 */
async function signUpInArabic(viewport: { width: number; height: number }) {
  const context = await session.newContext({ locale: 'ar-EG', viewport, serviceWorkers: 'block' })
  const page = await context.newPage()
  const email = uniqueEmail('rtl')
  await page.goto(`${session.server.url}/`)
  await page.waitForURL('**/auth/sign-in')
  await page.getByRole('link', { name: ar['auth.createAccount'] }).click()
  await page.waitForURL('**/auth/sign-up')
  await page.getByLabel(ar['auth.email']).fill(email)
  await page.getByLabel(ar['auth.password'], { exact: true }).fill(PASSWORD)
  await page.locator('form input[type=checkbox]').check()
  await page.getByRole('button', { name: ar['auth.createAccount'] }).click()
  await expectSignedInAs(page, email)
  await page.getByTestId('total-balance').waitFor()
  await page.getByTestId('wallet').first().waitFor()
  return { page, email }
}

/** Latin words of three letters or more the page shows (what a person reads, not markup). */
const latinWords = (page: Page) =>
  page.evaluate(() => [...new Set(document.body.innerText.match(/[A-Za-z]{3,}/g) ?? [])])

test('signed up in Arabic: the document, the navigation and the amounts read right to left', async () => {
  const { page } = await signUpInArabic(VIEWPORTS.desktop)

  expect(
    await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang]),
  ).toEqual(['rtl', 'ar'])

  // A desktop's side navigation sits on the right, against the window's edge (its padding apart).
  const nav = page.getByRole('navigation', { name: ar['nav.main'] })
  const side = (await nav.boundingBox())!
  expect(side.x).toBeGreaterThan(VIEWPORTS.desktop.width / 2)
  expect(side.x + side.width).toBeGreaterThan(VIEWPORTS.desktop.width - 24)

  // A phone's tab bar starts at the right: Home is its rightmost tab.
  await page.setViewportSize(VIEWPORTS.phone)
  const tabs = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().x))
  expect(tabs[0]).toBe(Math.max(...tabs))
  expect(await nav.getByRole('link').first().textContent()).toBe(ar['nav.home'])

  // The total is an LTR island inside the Arabic "≈ {amount}": the figures
  // before the currency's sign, as on every other amount.
  const total = page.getByTestId('total-balance').locator('span[aria-hidden=true]')
  const order = await total.evaluate((element) => {
    const text = element.firstChild as Text
    const at = (index: number) => {
      const range = document.createRange()
      range.setStart(text, index)
      range.setEnd(text, index + 1)
      return range.getBoundingClientRect().x
    }
    const value = text.data
    return {
      value,
      digit: at(value.search(/\d/)),
      sign: at(value.indexOf('€')),
    }
  })
  expect(order.value).toMatch(/^≈ \u2066[^\u2066\u2069]*€\u2069$/)
  expect(order.digit).toBeLessThan(order.sign)

  // A new deposit address reads left to right in its own isolated box.
  await page.getByTestId('wallet').first().getByRole('link').first().click()
  await page.getByRole('button', { name: ar['address.get'] }).click()
  const address = page.getByTestId('address')
  await address.waitFor()
  expect(
    await address.evaluate((element) => {
      const style = getComputedStyle(element)
      return [style.direction, style.unicodeBidi]
    }),
  ).toEqual(['ltr', 'isolate'])
})

test('home in Arabic shows none of the English words home shows in English', async () => {
  const { page, email } = await signUpInArabic(VIEWPORTS.phone)
  const arabic = await latinWords(page)

  // The same person's home in English: the words a person would see untranslated.
  await page.evaluate(() => localStorage.setItem('language', 'en'))
  await page.reload()
  await expectSignedInAs(page, email)
  await page.getByTestId('total-balance').waitFor()
  await page.getByTestId('wallet').first().waitFor()
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr')
  const english = new Set(await latinWords(page))

  // What is the person's or the platform's own in any language is data, not
  // words: e-mail addresses (theirs, the tenant's support), the tenant's name,
  // currencies' codes (EUR, USDT) and the chains' names beside them.
  const addresses = await page
    .locator('a[href^="mailto:"]')
    .evaluateAll((links) => links.map((link) => link.textContent ?? ''))
  const chains = await page
    .getByTestId('balance')
    .evaluateAll((rows) => rows.map((row) => row.textContent ?? ''))
  const own = new Set(
    [email, ...addresses, ...chains, 'Finplatform'].flatMap((text) => text.split(/[^A-Za-z]+/)),
  )
  const left = arabic.filter(
    (word) => english.has(word) && !own.has(word) && !/^[A-Z]+$/.test(word),
  )
  expect(english.size).toBeGreaterThan(10)
  expect(left).toEqual([])
})
