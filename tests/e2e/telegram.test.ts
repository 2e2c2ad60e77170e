import type { BrowserContext, Page, Request } from 'playwright-core'
import { expect, test } from 'vitest'
import {
  launchUser,
  signedInitData,
  TEST_BOT_TOKEN,
  withoutSignature,
} from '../../server/domain/auth/telegram-test-support.ts'
import { en } from '../../src/i18n/en.ts'
import { visit } from '../support/demo-routes.ts'
import {
  openTab,
  pathOf,
  personalWalletUuid,
  waitForServiceWorkerControl,
} from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'
import {
  launchParamsOf,
  openMiniApp,
  signUpWithTelegram,
  THEME,
  telegramCalls,
} from '../support/telegram-mini-app.ts'

/* The Mini App in Chromium, Telegram played as tests/support/telegram-mini-app.ts says. */

const session = e2eSession({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })

/** A browser context: one device, whose storage every Telegram account of it shares. */
function miniAppContext(options: {
  serviceWorkers: 'allow' | 'block'
  colorScheme?: 'light' | 'dark'
}): Promise<BrowserContext> {
  return session.newContext({ locale: 'en-US', ...options })
}

interface SeenRequest {
  path: string
  fromWorker: boolean
  appEnv: string | undefined
  initData: string | undefined
}

/** Every API request the browser makes in `context`, from pages and from the worker. */
function recordApiRequests(context: BrowserContext): SeenRequest[] {
  const seen: SeenRequest[] = []
  context.on('request', (request: Request) => {
    const url = new URL(request.url())
    if (!url.pathname.startsWith('/api/')) return
    request.allHeaders().then(
      (headers) => {
        seen.push({
          path: url.pathname,
          fromWorker: request.serviceWorker() !== null,
          appEnv: headers['x-app-env'],
          initData: headers['x-telegram-init-data'],
        })
      },
      // A request still in flight when the test closes its context: nothing left to check.
      () => {},
    )
  })
  return seen
}

/** What the app last told Telegram about the BackButton; hidden until it says otherwise. */
const backButtonShown = async (page: Page) => {
  const setups = (await telegramCalls(page)).filter((c) => c.name === 'web_app_setup_back_button')
  return (setups.at(-1)?.params as { is_visible?: boolean } | undefined)?.is_visible === true
}

const cssVar = (page: Page, name: string) =>
  page.evaluate(
    (property) => getComputedStyle(document.documentElement).getPropertyValue(property).trim(),
    name,
  )

/** The home screen of a signed-in person. */
/** The home screen of a signed-in person, greeted by their Telegram first name. */
const home = (page: Page) => page.getByRole('heading', { name: 'Hello, Ada!' }).waitFor()

/** The first visit: the terms, nothing else; refused without the box ticked; then home. */
async function acceptTermsAndLand(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Welcome to Finplatform' }).waitFor()
  expect(await page.getByLabel('Email').count()).toBe(0)
  await page.getByRole('button', { name: 'Open my account' }).click()
  await page.getByText('Agree to the terms to open your account.').waitFor()
  await page.getByLabel('I agree to the Terms of Service and the Privacy Policy').check()
  await page.getByRole('button', { name: 'Open my account' }).click()
  await home(page)
}

/** Profile and back through Telegram's BackButton, which is shown only where back stays in the app. */
async function backButtonNavigatesBack(page: Page): Promise<void> {
  await expect.poll(() => backButtonShown(page)).toBe(false)
  await openTab(page, 'Profile')
  await page.waitForURL('**/profile')
  await expect.poll(() => backButtonShown(page)).toBe(true)
  await page.evaluate(() => window.Telegram!.WebView!.receiveEvent('back_button_pressed'))
  await page.waitForURL((url) => url.pathname === '/')
  await home(page)
  await expect.poll(() => backButtonShown(page)).toBe(false)
}

async function expectChatTheme(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.dataset.appEnv)).toBe('telegram')
  await expect.poll(() => cssVar(page, '--tg-theme-button-color')).toBe(THEME.button_color)
  expect(await cssVar(page, '--color-accent')).toBe(THEME.button_color)
  expect(await cssVar(page, '--color-text')).toBe(THEME.text_color)
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(35, 46, 60)', // secondary_bg_color
  )
  // A dark chat on a light OS (Playwright's default): the alert and offline-banner
  // backgrounds are dark too, under the chat's light text.
  expect(await page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('dark')
  expect(await cssVar(page, '--color-warning-bg')).toBe('#3a3016')
  expect(await cssVar(page, '--color-success-bg')).toBe('#153326')
}

test('a Telegram user with an account is signed in with no form, in the chat’s colours', async () => {
  const user = launchUser()
  await signUpWithTelegram(user, session.server.url)
  const context = await miniAppContext({ serviceWorkers: 'allow' })
  const requests = recordApiRequests(context)
  const page = await openMiniApp(context, user)

  await page.goto(`${session.server.url}/`)
  await home(page)
  expect(pathOf(page)).toBe('/')
  expect(await page.getByLabel('Email').count()).toBe(0)
  expect(await page.getByRole('heading', { name: 'Welcome to Finplatform' }).count()).toBe(0)
  // No way to sign out of Telegram's identity.
  expect(await page.getByRole('link', { name: 'Sign out' }).count()).toBe(0)
  await expectChatTheme(page)
  const calls = (await telegramCalls(page)).map((c) => c.name)
  expect(calls).toEqual(expect.arrayContaining(['web_app_ready', 'web_app_expand']))

  // Under the worker too: every request it sends on says telegram, and the init data stays home.
  await waitForServiceWorkerControl(page)
  await page.reload()
  await home(page)
  await expect.poll(() => requests.filter((r) => r.fromWorker).length).toBeGreaterThan(0)
  expect(requests.find((r) => r.path === '/api/v2/auth/sign-in/telegram')).toBeDefined()
  expect(requests.every((r) => r.appEnv === 'telegram')).toBe(true)
  expect(requests.filter((r) => r.fromWorker && r.initData !== undefined)).toEqual([])

  await backButtonNavigatesBack(page)
})

test('launch data without `signature` (a client before Bot API 8.0) still wears the theme and says ready, with no CSP refusal', async () => {
  const user = launchUser({ first_name: 'Ada' })
  await signUpWithTelegram(user, session.server.url)
  const context = await miniAppContext({ serviceWorkers: 'block' })
  const initData = withoutSignature(signedInitData({ user }))
  expect(new URLSearchParams(initData).has('signature')).toBe(false)
  const client = { version: '7.0', initData }
  const page = await openMiniApp(context, user, THEME, client)
  const refusals: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text())
  })

  await page.goto(`${session.server.url}/#${launchParamsOf(user, THEME, client)}`)
  // Greeted by the Telegram first name, in the chat's colours, and Telegram was told.
  await home(page)
  await expectChatTheme(page)
  const calls = (await telegramCalls(page)).map((c) => c.name)
  expect(calls).toEqual(expect.arrayContaining(['web_app_ready']))
  // The SDK took the launch too: its BackButton works.
  await backButtonNavigatesBack(page)
  // Telegram Web's custom styles would be an inline <style>: none is made, none refused.
  expect(await page.locator('style#telegram-custom-styles').count()).toBe(0)
  expect(refusals).toEqual([])
})

test('a brand-new Telegram user is signed up once they agree to the terms', async () => {
  const user = launchUser({ language_code: 'en' })
  const context = await miniAppContext({ serviceWorkers: 'allow' })
  const requests = recordApiRequests(context)
  const page = await openMiniApp(context, user)

  await page.goto(`${session.server.url}/`)
  await acceptTermsAndLand(page)
  expect(requests.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/api/v2/auth/sign-in/telegram', '/api/v2/auth/sign-up/telegram']),
  )
  expect(requests.every((r) => r.appEnv === 'telegram')).toBe(true)
})

test('without service workers (Telegram on iOS) the page proxy does it all', async () => {
  const user = launchUser()
  const context = await miniAppContext({ serviceWorkers: 'block' })
  const requests = recordApiRequests(context)
  const page = await openMiniApp(context, user)

  await page.goto(`${session.server.url}/`)
  await acceptTermsAndLand(page)
  expect(await page.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull()
  await expectChatTheme(page)

  // A reload is still the Mini App (the launch parameters are kept for the tab), still signed in.
  await page.reload()
  await home(page)
  expect(requests.length).toBeGreaterThan(3)
  expect(requests.every((r) => !r.fromWorker && r.appEnv === 'telegram')).toBe(true)
  expect(requests.filter((r) => r.initData !== undefined)).toEqual([])

  await backButtonNavigatesBack(page)
})

test('a second Telegram account on the same device never gets the first one’s session', async () => {
  const ada = launchUser({ first_name: 'Ada' })
  const grace = launchUser({ first_name: 'Grace' })
  await signUpWithTelegram(ada, session.server.url)
  await signUpWithTelegram(grace, session.server.url)
  const context = await miniAppContext({ serviceWorkers: 'allow' })
  const requests = recordApiRequests(context)

  const first = await openMiniApp(context, ada)
  await first.goto(`${session.server.url}/profile`)
  await expect.poll(() => first.getByLabel('First name').inputValue()).toBe('Ada')
  await waitForServiceWorkerControl(first)
  await first.close()

  // The same Telegram app, another account: the tokens and the cache on disk are Ada's.
  const signInsBefore = requests.filter((r) => r.path === '/api/v2/auth/sign-in/telegram').length
  const second = await openMiniApp(context, grace)
  await second.goto(`${session.server.url}/profile`)
  await expect.poll(() => second.getByLabel('First name').inputValue()).toBe('Grace')
  expect(requests.filter((r) => r.path === '/api/v2/auth/sign-in/telegram').length).toBeGreaterThan(
    signInsBefore,
  )

  // And back: Ada is signed in as Ada again, not left in Grace's session.
  const again = await openMiniApp(context, ada)
  await again.goto(`${session.server.url}/profile`)
  await expect.poll(() => again.getByLabel('First name').inputValue()).toBe('Ada')
})

test('a light chat on a dark OS keeps light alert backgrounds under its dark text', async () => {
  const user = launchUser()
  await signUpWithTelegram(user, session.server.url)
  const context = await miniAppContext({ serviceWorkers: 'block', colorScheme: 'dark' })
  const light = {
    ...THEME,
    bg_color: '#ffffff',
    secondary_bg_color: '#f0f0f0',
    text_color: '#000000',
  }
  const page = await openMiniApp(context, user, light)
  await page.goto(`${session.server.url}/`)
  await home(page)
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.dataset.colorScheme)).toBe('light')
  await expect.poll(() => cssVar(page, '--color-text')).toBe('#000000')
  expect(await cssVar(page, '--color-warning-bg')).toBe('#fff6dd')
  expect(await cssVar(page, '--color-danger-bg')).toBe('#fdecee')
})

test('in the Mini App a statement and a receipt go to Telegram’s downloadFile as links of their own, and hidden amounts stay hidden', async () => {
  const user = launchUser()
  await signUpWithTelegram(user, session.server.url)
  const context = await miniAppContext({ serviceWorkers: 'block' })
  const page = await openMiniApp(context, user)
  await page.goto(`${session.server.url}/`)
  await home(page)

  // A statement of the Personal wallet: Telegram is handed a link it can fetch with no sign-in.
  const wallet = await personalWalletUuid(page)
  await visit(page, `/wallets/${wallet}`)
  await page.getByRole('link', { name: new RegExp(`^${en['wallets.statement']}`) }).click()
  await page.getByRole('radio', { name: en['statements.formats.pdf'] }).check()
  await page.getByRole('button', { name: en['statements.create'] }).click()
  await page
    .getByRole('heading', { name: en['statements.status.ready'] })
    .waitFor({ timeout: 30_000 })
  // Telegram saves or shares the file itself: no second button of ours.
  expect(await page.getByRole('button', { name: en['statements.share'] }).count()).toBe(0)
  await page.getByRole('button', { name: en['statements.download'] }).click()
  const downloadRequest = async () =>
    (await telegramCalls(page)).find((call) => call.name === 'web_app_request_file_download')
  await expect.poll(downloadRequest).toBeDefined()
  const { url, file_name } = (await downloadRequest())!.params as { url: string; file_name: string }
  expect(file_name).toMatch(/^statement-.+\.pdf$/)
  const file = await fetch(url)
  expect(file.status).toBe(200)
  expect(
    Buffer.from(await file.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-')
  expect(await page.getByText(en['statements.handFailed']).count()).toBe(0)

  // A receipt goes the same way: a deposit's, from its activity item.
  await visit(page, `/wallets/${wallet}`)
  await page.getByRole('combobox', { name: 'Network' }).selectOption('ethereum')
  await page.getByRole('button', { name: 'Get address' }).click()
  await page.getByTestId('address').waitFor()
  const deposit = await fetch(`${session.server.url}/api/sandbox/deposits`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      wallet_uuid: wallet,
      chain: 'ethereum',
      currency: 'ETH',
      amount: '0.5',
    }),
  })
  expect(deposit.status).toBe(202)
  await visit(page, '/activity')
  const row = page.getByTestId('activity-row').filter({ hasText: 'ETH deposit' })
  await row.first().waitFor({ timeout: 30_000 })
  await row.first().click()
  await page.getByRole('button', { name: en['activity.receipt.download'] }).click()
  const receiptRequest = async () =>
    (await telegramCalls(page)).find(
      (call) =>
        call.name === 'web_app_request_file_download' &&
        (call.params as { url: string }).url.includes('/api/receipts/'),
    )
  await expect.poll(receiptRequest).toBeDefined()
  const receipt = await fetch(((await receiptRequest())!.params as { url: string }).url)
  expect(receipt.status).toBe(200)
  expect(receipt.headers.get('content-type')).toBe('application/pdf')
  expect(await page.getByRole('button', { name: en['activity.receipt.share'] }).count()).toBe(0)
  expect(await page.getByText(en['activity.receipt.failed']).count()).toBe(0)

  // One tap hides every amount, and the Mini App remembers it across a reload.
  await visit(page, '/')
  await page.getByTestId('total-balance').waitFor()
  await page.getByRole('button', { name: en['amounts.hide'] }).first().click()
  await page.getByTestId('total-balance').filter({ hasText: '•••' }).waitFor()
  await page.reload()
  await home(page)
  await page.getByTestId('total-balance').filter({ hasText: '•••' }).waitFor()
  expect(await page.getByTestId('total-balance').innerText()).not.toMatch(/\d/)
})
