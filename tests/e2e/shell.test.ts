import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import {
  pathOf,
  signUpThroughUi,
  uniqueEmail,
  waitForServiceWorkerControl,
} from '../support/e2e-app.ts'
import { e2eSession } from '../support/e2e-server.ts'

/*
 * The first minutes of a new person, and the ways a screen can be missing:
 * an address no route knows, and an order nobody has.
 */

const session = e2eSession()

test('a new account lands on home with a Personal wallet and its next steps; a deposit address is two taps away', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    viewport: { width: 390, height: 844 },
    serviceWorkers: 'block',
  })
  const page = await context.newPage()
  await signUpThroughUi(page, session.server.url, uniqueEmail('shell'))

  await page.getByRole('link', { name: 'Personal wallet' }).waitFor()
  const steps = page.getByRole('region', { name: 'Next steps' }).getByTestId('next-step')
  await expect
    .poll(() => steps.allTextContents())
    .toEqual([
      expect.stringContaining('Verify your identity'),
      expect.stringContaining('Add money'),
      expect.stringContaining('Get a card'),
    ])
  // The phone's tab bar: five destinations, Home the current one.
  const nav = page.getByRole('navigation', { name: 'Main' })
  expect(await nav.getByRole('link').allTextContents()).toEqual([
    'Home',
    'Cards',
    'Move money',
    'Activity',
    'Profile',
  ])
  expect(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page')

  // Tap one: the step. Tap two: an address.
  await steps.filter({ hasText: 'Add money' }).getByRole('link').click()
  await page.waitForURL((url) => url.pathname === '/deposit')
  await page.getByRole('button', { name: 'Get an address' }).click()
  const address = (await page.getByTestId('deposit-address').textContent())?.trim()
  expect(address).toMatch(/^(bc1|tb1)[0-9a-z]{20,}$/)
  expect(await nav.getByRole('link', { name: 'Move money' }).getAttribute('aria-current')).toBe(
    'page',
  )
})

test('an address no route knows is a not-found page at that address, with the way home', async () => {
  const context = await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  const page = await context.newPage()
  await signUpThroughUi(page, session.server.url, uniqueEmail('lost'))

  await page.goto(`${session.server.url}/no/such/screen`)
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()
  expect(pathOf(page)).toBe('/no/such/screen')
  await page.getByRole('main').getByRole('link', { name: 'Go to home' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await page.getByRole('link', { name: 'Personal wallet' }).waitFor()
})

test('an order, a card or a wallet nobody has says it does not exist, never a validation message', async () => {
  const context = await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  const page = await context.newPage()
  await signUpThroughUi(page, session.server.url, uniqueEmail('missing'))

  await page.goto(`${session.server.url}/orders/${randomUUID()}`)
  await page.getByRole('heading', { level: 1, name: 'This order doesn’t exist' }).waitFor()
  expect(await page.getByText('Some fields need another look.').count()).toBe(0)
  expect(
    await page.getByRole('main').getByRole('link', { name: 'Orders' }).getAttribute('href'),
  ).toBe('/orders')

  await page.goto(`${session.server.url}/cards/not-a-card`)
  await page.getByRole('heading', { level: 1, name: 'This card doesn’t exist' }).waitFor()
  expect(await page.getByText('Some fields need another look.').count()).toBe(0)

  await page.goto(`${session.server.url}/wallets/${randomUUID()}`)
  await page.getByRole('heading', { level: 1, name: 'This wallet doesn’t exist' }).waitFor()
})

test('sign-up’s Terms and Privacy are pages of their own, in the language on screen, past the service worker', async () => {
  const context = await session.newContext({ locale: 'ru-RU' })
  const page = await context.newPage()
  await page.goto(`${session.server.url}/auth/sign-up`)
  await waitForServiceWorkerControl(page)
  const [terms] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'условия использования' }).click(),
  ])
  await terms.waitForURL((url) => url.pathname === '/legal/terms.ru.html')
  await terms.getByRole('heading', { level: 1, name: 'Условия использования' }).waitFor()
  // A document, not the app: the worker's app shell does not stand in for it.
  expect(await terms.locator('#root').count()).toBe(0)
  await terms.getByRole('link', { name: 'Политика конфиденциальности' }).click()
  await terms.getByRole('heading', { level: 1, name: 'Политика конфиденциальности' }).waitFor()
})
