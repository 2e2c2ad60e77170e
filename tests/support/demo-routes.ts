import type { Page } from 'playwright-core'
import { paths } from '../../src/paths.ts'
import { TENANT_HEADERS } from './server-process.ts'

/*
 * Every route of the app (src/paths.ts, which src/app/routes.tsx routes)
 * as a URL the sandbox demo user can open: the ids come from the demo's own
 * data, and one exchange order is placed so an order page has something to
 * show. Shared by the layout e2e test and `npm run screenshots`.
 */

export const DEMO = { email: 'demo@finplatform.local', password: 'Sandbox-Wallet-2025' } as const

/** The sizes screens are held to: the narrowest phone, a common phone, a desktop. */
export const VIEWPORTS = {
  small: { width: 360, height: 740 },
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const

/** Theme parameters of a dark and a light Telegram chat, as a client sends them. */
export const CHAT_THEMES = {
  dark: {
    bg_color: '#17212b',
    secondary_bg_color: '#232e3c',
    section_bg_color: '#17212b',
    text_color: '#f5f5f5',
    hint_color: '#708499',
    link_color: '#6ab3f3',
    button_color: '#5288c1',
    button_text_color: '#ffffff',
  },
  light: {
    bg_color: '#ffffff',
    secondary_bg_color: '#f0f0f0',
    section_bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#999999',
    link_color: '#2481cc',
    button_color: '#2481cc',
    button_text_color: '#ffffff',
  },
} as const

export type RouteName = keyof typeof paths

/** Routes a signed-out person sees; every other one needs a session. */
export const SIGNED_OUT: RouteName[] = ['signIn', 'signUp']
/** Routes that end the session or only pass through: not screens to judge. */
export const PASSING: RouteName[] = ['logout']

export interface DemoUrl {
  name: RouteName
  url: string
}

async function call<T>(base: string, path: string, init: RequestInit & { token?: string } = {}) {
  const { token, ...rest } = init
  const v1 = path.startsWith('/api/v1')
  const response = await fetch(`${base}${path}`, {
    ...rest,
    headers: {
      ...TENANT_HEADERS,
      'content-type': 'application/json',
      ...(token && { authorization: v1 ? token : `Bearer ${token}` }),
    },
  })
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

type List<T> = { data: T[] }

/** The demo's ids, and a URL for every route. */
export async function demoUrls(base: string): Promise<DemoUrl[]> {
  const { access_token: token } = await call<{ access_token: string }>(
    base,
    '/api/v2/auth/sign-in/password/email',
    { method: 'POST', body: JSON.stringify(DEMO) },
  )
  const wallets = await call<List<{ uuid: string; type: string }>>(base, '/api/v2/wallets', {
    token,
  })
  const personal = wallets.data.find((wallet) => wallet.type === 'personal')!.uuid
  const [tx] = (
    await call<List<{ uuid: string }>>(base, `/api/v2/wallets/${personal}/transactions?limit=1`, {
      token,
    })
  ).data
  const [counterparty] = (
    await call<List<{ counterparty_account_id: string }>>(
      base,
      `/api/v2/counterparties/${personal}`,
      { token },
    )
  ).data
  const cards = await call<List<{ id: string; form_factor: string }>>(
    base,
    `/api/v1/issuing/cards?wallet_uuid=${personal}`,
    { token },
  )
  const card = cards.data.find((item) => item.form_factor === 'PHYSICAL') ?? cards.data[0]
  // The balance account: its page shows everything an account's can, auto top-up too (issue 30).
  const accounts = (
    await call<List<{ id: string; sub_account_type: string }>>(
      base,
      `/api/v1/fiat_accounts/list/${personal}`,
      { token },
    )
  ).data
  const account = accounts.find((item) => item.sub_account_type === 'balance') ?? accounts[0]
  const order = await placeExchange(base, token, personal)
  const request = await requestPayment(base, token)
  // The exchange just placed is the newest thing that happened: its own line, its own page.
  const [activity] = (
    await call<List<{ id: string; type: string }>>(base, '/api/v2/activity?type=exchange&limit=1', {
      token,
    })
  ).data

  const params: Record<string, string> = { uuid: personal, tx: tx!.uuid }
  const ids: Partial<Record<RouteName, string>> = {
    counterparty: counterparty!.counterparty_account_id,
    order,
    card: card!.id,
    fiatAccount: account!.id,
    activityItem: activity!.id,
    paymentRequest: request,
  }
  // Every route, so a route added to paths.ts without demo data to open it fails here.
  // Screens that show what their query string names: a statement is of one wallet.
  const queries: Partial<Record<RouteName, string>> = { statements: `?wallet=${personal}` }
  return (Object.entries(paths) as [RouteName, string][]).map(([name, pattern]) => ({
    name,
    url:
      pattern.replace(/:(\w+)/g, (_, key: string) => {
        const value = key === 'id' ? ids[name] : params[key]
        if (!value) throw new Error(`no demo data opens :${key} of the route ${name} (${pattern})`)
        return value
      }) + (queries[name] ?? ''),
  }))
}

/**
 * Issue 30: the demo's active card with online payments turned off, an online
 * payment the sandbox network tried and the controls declined. Answers the
 * declined payment's activity item, which says why and offers "Allow online
 * payments". The card keeps online payments off (turning them on again needs
 * the second look): only for a server of its own, asked for by name.
 */
export async function controlDeclineUrl(base: string): Promise<string> {
  const { access_token: token } = await call<{ access_token: string }>(
    base,
    '/api/v2/auth/sign-in/password/email',
    { method: 'POST', body: JSON.stringify(DEMO) },
  )
  const cards = await call<List<{ id: string; status: string; currency: string }>>(
    base,
    '/api/v1/issuing/cards?limit=100',
    { token },
  )
  const card = cards.data.find((item) => item.status === 'ACTIVE')!
  const controls = `/api/v1/issuing/cards/${card.id}/controls`
  const kept = await call<{ channels: Record<string, boolean> }>(base, controls, { token })
  const put = (body: unknown) =>
    call(base, controls, { method: 'PUT', token, body: JSON.stringify(body) })
  await put({ ...kept, channels: { ...kept.channels, online: false } })
  const declined = await call<{ activity_id: string }>(base, '/api/sandbox/card-transactions', {
    method: 'POST',
    body: JSON.stringify({
      card_id: card.id,
      type: 'AUTHORIZATION',
      amount: '9.99',
      currency: card.currency,
      merchant: { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' },
      channel: 'online',
    }),
  })
  return `/activity/${declined.activity_id}`
}

/**
 * Issue 30: a card payment of the demo's active card, authorised and cleared
 * by the sandbox network: a settled payment that can be disputed. Answers its
 * activity item. A new one each call (each can be disputed once).
 */
export async function settledPaymentUrl(base: string): Promise<string> {
  const { access_token: token } = await call<{ access_token: string }>(
    base,
    '/api/v2/auth/sign-in/password/email',
    { method: 'POST', body: JSON.stringify(DEMO) },
  )
  const cards = await call<List<{ id: string; status: string; currency: string }>>(
    base,
    '/api/v1/issuing/cards?limit=100',
    { token },
  )
  // The first active card whose account can pay (the demo's cards are not all funded).
  for (const card of cards.data.filter((item) => item.status === 'ACTIVE')) {
    const message = (body: Record<string, unknown>) =>
      call<{ id: string; activity_id: string; status: string }>(
        base,
        '/api/sandbox/card-transactions',
        {
          method: 'POST',
          body: JSON.stringify({
            card_id: card.id,
            amount: '4.99',
            currency: card.currency,
            ...body,
          }),
        },
      )
    const auth = await message({
      type: 'AUTHORIZATION',
      merchant: { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' },
    })
    if (auth.status !== 'APPROVED') continue
    await message({ type: 'CLEARING', authorization_id: auth.id })
    return `/activity/${auth.activity_id}`
  }
  throw new Error('no active demo card can pay')
}

/** An exchange of 25 USDT (Tron) to BTC from the personal wallet: an order with a page of its own. */
async function placeExchange(base: string, token: string, wallet: string): Promise<string> {
  const currencies = await call<List<{ uuid: string; code: string; chain: string | null }>>(
    base,
    '/api/v2/currencies',
    { token },
  )
  const usdt = currencies.data.find((c) => c.code === 'USDT' && c.chain === 'tron')!.uuid
  const btc = currencies.data.find((c) => c.code === 'BTC')!.uuid
  const query = new URLSearchParams({
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    wallet_uuid: wallet,
    from_uuid: usdt,
    to_uuid: btc,
    amount_from: '25.00',
  })
  const quote = await call<{ quote_id: string }>(base, `/api/v1/orders/calc?${query}`, { token })
  const placed = await call<{ id: string }>(base, '/api/v1/orders/EXCHANGE_CRYPTO_INTERNAL', {
    method: 'POST',
    token,
    body: JSON.stringify({ quote_id: quote.quote_id }),
  })
  return placed.id
}

/**
 * Waits until the screen of the current address is shown (main's
 * data-location), with its heading, no skeleton and no QR code still drawing
 * left — or 8 s have passed — then for its fonts, its images and the paint
 * after them. `stillMs` waits that much longer (a screenshot's last frame).
 */
export async function settle(page: Page, stillMs = 0): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document.querySelector('main')?.dataset.location === location.pathname &&
        document.querySelector('main h1, main h2') !== null &&
        document.querySelector('.skeleton, .skeleton-total, .qr-loading') === null,
      undefined,
      { timeout: 8_000 },
    )
    .catch(() => undefined)
  await page.evaluate(async () => {
    await document.fonts.ready
    // An image never asked for (lazy, off screen) would never load: two seconds at most.
    const loading = [...document.images].filter((image) => !image.complete)
    await Promise.race([
      Promise.all(
        loading.map(
          (image) =>
            new Promise((done) => {
              image.addEventListener('load', done, { once: true })
              image.addEventListener('error', done, { once: true })
            }),
        ),
      ),
      new Promise((done) => setTimeout(done, 2_000)),
    ])
    // Two frames: the styles of what just loaded applied, then painted.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
  })
  if (stillMs > 0) await page.waitForTimeout(stillMs)
}

/** Moves the single-page app to `url` without a reload (wouter follows popstate). */
export async function visit(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to)
    dispatchEvent(new PopStateEvent('popstate'))
  }, url)
  await settle(page)
}

/** Signs the demo user in through the sign-in screen (any language: by the fields' types); home shows. */
export async function signInAsDemo(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/auth/sign-in`)
  await page.locator('input[type=email]').fill(DEMO.email)
  await page.locator('input[type=password]').fill(DEMO.password)
  await page.locator('form button[type=submit]').click()
  await page.waitForURL((url) => url.pathname === '/')
  await settle(page)
}

/** Issue 32: the demo asks to be paid €25 for concert tickets; answers the request's id. */
async function requestPayment(base: string, token: string): Promise<string> {
  const currencies = await call<List<{ uuid: string; code: string; type: string }>>(
    base,
    '/api/v2/currencies',
    { token },
  )
  const eur = currencies.data.find((c) => c.code === 'EUR' && c.type === 'fiat')!.uuid
  const request = await call<{ id: string }>(base, '/api/v2/payment-requests', {
    method: 'POST',
    token,
    body: JSON.stringify({ amount: '25', currency_uuid: eur, note: 'Concert tickets' }),
  })
  return request.id
}
