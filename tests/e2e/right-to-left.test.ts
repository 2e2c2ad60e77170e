import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { ar } from '../../src/i18n/ar.ts'
import { en, type Messages } from '../../src/i18n/en.ts'
import { id } from '../../src/i18n/id.ts'
import { VIEWPORTS } from '../support/demo-routes.ts'
import { expectSignedInAs, PASSWORD, uniqueEmail } from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'

/*
 * Issue 34: a person whose browser reads Arabic signs up and reaches home
 * with the document, the navigation and the amounts the right way round; in
 * Arabic and in Indonesian, not one of English's words is left on home.
 */

const session = e2eSession()

/**
 * A browser that reads `locale`, signed up through the sign-up screen as the
 * person reads it (every label from `words`, the catalogue the browser's
 * language picks), on home.
 */
async function signUpIn(
  locale: string,
  words: Messages,
  viewport: { width: number; height: number },
) {
  const context = await session.newContext({ locale, viewport, serviceWorkers: 'block' })
  const page = await context.newPage()
  const email = uniqueEmail('lang')
  await page.goto(`${session.server.url}/`)
  await page.waitForURL('**/auth/sign-in')
  await page.getByRole('link', { name: words['auth.createAccount'] }).click()
  await page.waitForURL('**/auth/sign-up')
  await page.getByLabel(words['auth.email']).fill(email)
  await page.getByLabel(words['auth.password'], { exact: true }).fill(PASSWORD)
  await page.locator('form input[type=checkbox]').check()
  await page.getByRole('button', { name: words['auth.createAccount'] }).click()
  await expectSignedInAs(page, email)
  await page.getByTestId('total-balance').waitFor()
  await page.getByTestId('wallet').first().waitFor()
  return { page, email }
}

const signUpInArabic = (viewport: { width: number; height: number }) =>
  signUpIn('ar-EG', ar, viewport)

/** Every piece of text the page shows, trimmed (what a person reads, not markup). */
const shownTexts = (page: Page) =>
  page.evaluate(() => {
    const texts = new Set<string>()
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      const box = node.parentElement?.getBoundingClientRect()
      if (text && box && box.width > 0 && box.height > 0) texts.add(text)
    }
    return [...texts]
  })

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

test.each([
  ['ar-EG', 'Arabic', ar],
  ['id-ID', 'Indonesian', id],
] as const)('signed up in %s (%s), home shows no English message', async (locale, _, words) => {
  const { page } = await signUpIn(locale, words, VIEWPORTS.phone)
  const language = locale.split('-')[0]!
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language)

  // English's words for every message the language words otherwise (a brand, "IBAN" or a
  // loanword the language writes the same is its own): none may be on screen.
  const english = new Set<string>(
    (Object.keys(en) as (keyof Messages)[])
      .filter((key) => words[key] !== en[key] && !en[key].includes('{'))
      .map((key) => en[key]),
  )
  const shown = await shownTexts(page)
  expect(shown.length).toBeGreaterThan(10)
  expect(shown.filter((text) => english.has(text))).toEqual([])
  // And the page is worded: its navigation's first tab is the language's "Home".
  const nav = page.getByRole('navigation', { name: words['nav.main'] })
  expect(await nav.getByRole('link').first().textContent()).toBe(words['nav.home'])
})
