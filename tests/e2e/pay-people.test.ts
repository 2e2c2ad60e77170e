import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { launchUser, TEST_BOT_TOKEN } from '../../server/domain/auth/telegram-test-support.ts'
import { DEMO, signInAsDemo } from '../support/demo-routes.ts'
import { openTab, signUpThroughUi, uniqueEmail } from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'
import {
  openMiniApp,
  signUpWithTelegram,
  THEME,
  telegramCalls,
} from '../support/telegram-mini-app.ts'

/*
 * Issue 32 in the browser: the demo's Mia pays someone who is not a customer
 * yet, by e-mail, and they find the money once they sign up with it; a
 * request of Mia's is paid from the Mini App its Telegram link opens.
 */

const session = e2eSession({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })

/** The API as the demo person, for what the test sets up beside the page. */
async function asMia(base: string) {
  const signIn = await fetch(`${base}/api/v2/auth/sign-in/password/email`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  })
  const { access_token } = (await signIn.json()) as { access_token: string }
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}/api/v2${path}`, {
      method,
      headers: {
        ...TENANT_HEADERS,
        authorization: `Bearer ${access_token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    if (!response.ok)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    return (await response.json()) as T
  }
  const currencies = await call<{ data: { uuid: string; code: string; type: string }[] }>(
    'GET',
    '/currencies',
  )
  const eur = currencies.data.find((c) => c.code === 'EUR' && c.type === 'fiat')!.uuid
  const wallets = await call<{ data: { uuid: string; type: string }[] }>('GET', '/wallets')
  const wallet = wallets.data.find((w) => w.type === 'personal')!.uuid
  return { call, eur, wallet }
}

/** What the app last asked Telegram's MainButton to say. */
async function mainButtonText(page: Page): Promise<string | undefined> {
  const setups = (await telegramCalls(page)).filter((c) => c.name === 'web_app_setup_main_button')
  const last = setups.at(-1)?.params as { text?: string; is_visible?: boolean } | undefined
  return last?.is_visible ? last.text : undefined
}

test('Mia pays a new person by e-mail; they sign up with it and find the money in their activity', async () => {
  const base = session.server.url
  const email = uniqueEmail('paid')
  const mia = await (
    await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  ).newPage()
  await signInAsDemo(mia, base)
  const { wallet, eur } = await asMia(base)
  await mia.goto(`${base}/pay-someone?wallet=${wallet}`)
  await mia.getByRole('textbox', { name: /phone or @username/ }).fill(email)
  await mia.getByText(/the money waits 7 days for them to sign up/).waitFor()
  await mia.getByRole('combobox', { name: 'Currency' }).selectOption(eur)
  await mia.getByRole('textbox', { name: 'Amount (EUR)' }).fill('5')
  await mia.getByRole('textbox', { name: 'Note' }).fill('Welcome aboard')
  await mia.getByRole('button', { name: 'Review' }).click()
  await mia.getByRole('button', { name: 'Send' }).click()
  await mia.getByRole('heading', { name: 'Waiting for them to sign up' }).waitFor()

  const newcomer = await (
    await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  ).newPage()
  await signUpThroughUi(newcomer, base, email)
  await openTab(newcomer, 'Activity')
  await newcomer.getByText('+€5.00').first().waitFor({ timeout: 20_000 })
  await newcomer.getByText(/Mia/).first().waitFor()
})

test('a request is paid from the Mini App its link opens (startapp=pr_<id>), with the MainButton', async () => {
  const base = session.server.url
  const username = `pp_${randomUUID().replaceAll('-', '').slice(0, 12)}`
  const user = launchUser({ username })
  await signUpWithTelegram(user, base)
  // Mia gives the Telegram user €10 (they let people find them), then asks them for €3.
  const mia = await asMia(base)
  await mia.call('POST', '/transfers', {
    to: { telegram_username: username },
    wallet_uuid: mia.wallet,
    currency_uuid: mia.eur,
    amount: '10',
    request_id: randomUUID(),
  })
  const request = await mia.call<{ id: string }>('POST', '/payment-requests', {
    amount: '3',
    currency_uuid: mia.eur,
    note: 'Coffee',
  })

  const context = await session.newContext({ locale: 'en-US', serviceWorkers: 'block' })
  const page = await openMiniApp(context, user, THEME, undefined, `pr_${request.id}`)
  await page.goto(`${base}/`)
  await page.waitForURL((url) => url.pathname === `/pay/${request.id}`)
  await page.getByRole('heading', { name: /asks you to pay$/ }).waitFor()
  await page.getByText('Coffee').waitFor()
  await expect.poll(() => mainButtonText(page)).toBe('Pay €3.00')
  await page.evaluate(() => window.Telegram!.WebView!.receiveEvent('main_button_pressed'))
  await page.getByText(/^Paid\. .+ has the money\.$/).waitFor()

  const paid = await mia.call<{ status: string }>('GET', `/payment-requests/${request.id}`)
  expect(paid.status).toBe('PAID')
})
