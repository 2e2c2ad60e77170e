import { createECDH, randomBytes } from 'node:crypto'
import type { Page, Response } from 'playwright-core'
import { expect, test } from 'vitest'
import { DEMO, signInAsDemo } from '../support/demo-routes.ts'
import { confirmWithCode, readVault, waitForServiceWorkerControl } from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * Events reaching the person (issue 20): a card payment from the sandbox card
 * network shows in the notification centre within seconds, behind the bell's
 * count; the service worker shows a push as a notification that opens the
 * screen; Profile's switch goes as far as the browser's permission prompt.
 */

// Two tests take a step-up code for the demo person within a minute: no resend wait.
const session = e2eSession({ JOBS_POLL_MS: '100', OTP_RESEND_INTERVAL: '0' })

/** A v1 call as the signed-in person, with the token from the app's vault. */
async function v1<T>(page: Page, path: string): Promise<T> {
  const tokens = await readVault(page)
  if (!tokens) throw new Error('no tokens in the vault')
  const response = await fetch(`${session.server.url}/api/v1${path}`, {
    headers: { ...TENANT_HEADERS, authorization: tokens.access_token },
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text}`)
  return JSON.parse(text) as T
}

/** Opens (reads by id) every unread notification, as tapping each one would. */
async function readSecurityAlerts(page: Page): Promise<void> {
  const tokens = await readVault(page)
  const call = (method: string, body?: unknown) =>
    fetch(
      `${session.server.url}/api/v2/notifications${method === 'GET' ? '?limit=100' : '/read'}`,
      {
        method,
        headers: {
          ...TENANT_HEADERS,
          authorization: `Bearer ${tokens!.access_token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      },
    )
  const list = (await (await call('GET')).json()) as {
    data: { id: string; read_at: string | null }[]
  }
  const ids = list.data.filter((item) => item.read_at === null).map((item) => item.id)
  if (ids.length > 0) expect((await call('POST', { ids })).status).toBe(200)
}

test('a sandbox card authorisation shows in the notification centre within seconds, behind the bell', async () => {
  const context = await session.newContext({
    locale: 'en-US',
    viewport: { width: 390, height: 844 },
  })
  const page = await context.newPage()
  const base = session.server.url
  await signInAsDemo(page, base)

  // The demo's card on its euro balance account: the wallet's euros pay for it.
  const cards = await v1<{
    data: { id: string; status: string; currency: string; stand_alone: boolean }[]
  }>(page, '/issuing/cards?limit=100')
  const card = cards.data.find(
    (candidate) =>
      candidate.status === 'ACTIVE' && candidate.currency === 'EUR' && !candidate.stand_alone,
  )
  if (!card) throw new Error(`the demo has no active EUR card: ${JSON.stringify(cards.data)}`)

  // Whatever the seed told already is read, so the count below is this payment's.
  // The phone's top bar holds the bell; the side navigation's copy is hidden at this width.
  const bell = page.locator('[data-testid="notification-bell"]:visible')
  await bell.click()
  await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
  const markAll = page.getByRole('button', { name: 'Mark all as read' })
  if (await markAll.isVisible()) await markAll.click()
  // Security alerts (the demo's cards being issued) stay unread until opened: read them by id.
  await readSecurityAlerts(page)
  await page.reload()
  await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications')

  const merchant = `Bistro ${Date.now().toString(36)}`
  const paid = await fetch(`${base}/api/sandbox/card-transactions`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      card_id: card.id,
      type: 'AUTHORIZATION',
      amount: '4.20',
      currency: 'EUR',
      merchant: { name: merchant, mcc: '5814', city: 'Berlin', country: 'DE' },
    }),
  })
  expect(paid.status, await paid.clone().text()).toBe(201)
  const sentAt = Date.now()

  // The centre reads again while open; a reload stands in for a person pulling to refresh.
  const row = page.getByRole('link', { name: new RegExp(`${merchant}.*Card payment`) })
  await expect
    .poll(
      async () => {
        if (await row.isVisible()) return true
        await page.reload()
        await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
        return row.isVisible()
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true)
  expect(Date.now() - sentAt).toBeLessThan(20_000)
  await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread')
  await expect.poll(() => row.textContent()).toMatch(/4\.20/)

  // The row opens the card, and reads the notification.
  await row.click()
  await page.waitForURL(`${base}/cards/${card.id}`)
  await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications')
})

test('the service worker shows a dispatched push, and a tap opens its screen', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  await context.grantPermissions(['notifications'], { origin: session.server.url })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await waitForServiceWorkerControl(page)

  // Chromium's push service is out of reach offline: DevTools hands the worker a push event.
  const cdp = await context.newCDPSession(page)
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const found = event.registrations.find((entry) =>
        entry.scopeURL.startsWith(session.server.url),
      )
      if (found) resolve(found.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  const registrationId = await registration
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: session.server.url,
    registrationId,
    data: JSON.stringify({
      title: 'Card payment',
      body: 'Corner Café: 3.50 EUR',
      path: '/verify',
      event_id: '0190f5e4-0000-7000-8000-0000000000aa',
      kind: 'card.authorization.approved',
    }),
  })
  const shown = () =>
    page.evaluate(async () => {
      const worker = await navigator.serviceWorker.ready
      return (await worker.getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        data: notification.data as unknown,
      }))
    })
  await expect.poll(shown, { timeout: 10_000 }).toEqual([
    {
      title: 'Card payment',
      body: 'Corner Café: 3.50 EUR',
      tag: '0190f5e4-0000-7000-8000-0000000000aa',
      data: { path: '/verify' },
    },
  ])
})

test('Profile’s switch asks the browser for permission, and says so when it is refused', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  // Headless Chromium shows no prompt: the page records the ask and answers as a person saying no.
  await context.addInitScript(() => {
    const state = window as unknown as { prompted: number }
    state.prompted = 0
    Notification.requestPermission = async () => {
      state.prompted++
      return 'denied'
    }
  })
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await waitForServiceWorkerControl(page)
  await page.goto(`${session.server.url}/profile`)
  await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor()
  await page.getByTestId('push-state').getByText('Off for this device').waitFor()
  await page.getByRole('button', { name: 'Turn on' }).click()
  await page
    .getByRole('alert')
    .getByText(/Notifications are blocked for this site/)
    .waitFor()
  expect(await page.evaluate(() => (window as unknown as { prompted: number }).prompted)).toBe(1)

  // The kinds: one unticked is saved for the account.
  const refunds = page.getByRole('checkbox', { name: 'Card refunds' })
  expect(await refunds.isChecked()).toBe(true)
  await refunds.uncheck()
  // Muting what reaches this device needs the second look.
  await confirmWithCode(page, session.server.url, DEMO.email)
  await page.getByRole('status').getByText('Saved').waitFor()
  await page.reload()
  await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor()
  await expect
    .poll(() => page.getByRole('checkbox', { name: 'Card refunds' }).isChecked())
    .toBe(false)
})

/**
 * A subscription exactly as Chromium's PushSubscription.toJSON() gives it:
 * an FCM endpoint, `expirationTime: null`, the P-256 key and auth secret in
 * base64url, in this order. Headless Chromium cannot reach FCM here, so the
 * page's PushManager answers with it (a real key pair: the server may check it).
 */
function chromiumSubscription() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('base64url')}:APA91b${randomBytes(100).toString('base64url')}`,
    expirationTime: null,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  }
}

test('Profile’s switch turns push on with what Chromium’s PushSubscription.toJSON() gives', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  await context.grantPermissions(['notifications'], { origin: session.server.url })
  const shape = chromiumSubscription()
  await context.addInitScript((json) => {
    let current: PushSubscription | null = null
    PushManager.prototype.getSubscription = async () => current
    PushManager.prototype.subscribe = async () => {
      current = {
        endpoint: json.endpoint,
        expirationTime: json.expirationTime,
        toJSON: () => JSON.parse(JSON.stringify(json)),
        unsubscribe: async () => {
          current = null
          return true
        },
      } as unknown as PushSubscription
      return current
    }
  }, shape)
  const page = await context.newPage()
  await signInAsDemo(page, session.server.url)
  await waitForServiceWorkerControl(page)
  await page.goto(`${session.server.url}/profile`)
  await page.getByTestId('push-state').getByText('Off for this device').waitFor()
  const posted: Response[] = []
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && response.url().endsWith('/push/subscriptions'))
      posted.push(response)
  })
  await page.getByRole('button', { name: 'Turn on' }).click()
  // A device that can be told things needs the second look; the app sends the body again after it.
  await confirmWithCode(page, session.server.url, DEMO.email)
  await page.getByTestId('push-state').getByText('On for this device').waitFor()
  const taken = posted.at(-1)!
  expect(taken.request().postDataJSON()).toEqual(shape)
  expect(taken.status()).toBe(204)
  // Off again: the dispatcher has no unreachable push service to try for the tests after.
  await page.getByRole('button', { name: 'Turn off' }).click()
  await page.getByTestId('push-state').getByText('Off for this device').waitFor()
})
