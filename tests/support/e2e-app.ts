import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { VAULT_CHANGED, VAULT_CHANNEL } from '../../src/storage/token-vault.ts'
import { TENANT_HEADERS } from './e2e-server.ts'

/** What the app's screens and the auth proxy need from a test, in the app's own words. */

export const PASSWORD = 'correct horse battery staple'

/** An address no other test (or earlier run against the same data) has used. */
export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`

/** The path of the page's current URL. */
export const pathOf = (page: Page) => new URL(page.url()).pathname

/** Waits until the home screen says who is signed in. */
export async function expectSignedInAs(page: Page, email: string): Promise<void> {
  await page.getByTestId('signed-in-as').filter({ hasText: email }).waitFor()
}

/** Opens the app signed out, creates an account through the sign-up screen, lands on home. */
export async function signUpThroughUi(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/`)
  await page.waitForURL('**/auth/sign-in')
  await page.getByRole('link', { name: 'Create account' }).click()
  await page.waitForURL('**/auth/sign-up')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('checkbox', { name: /^I agree to the Terms of Service/ }).check()
  await page.getByRole('button', { name: 'Create account' }).click()
  await expectSignedInAs(page, email)
}

/** Opens one of the signed-in destinations from the navigation (tab bar or side navigation). */
export async function openTab(page: Page, name: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name, exact: true })
    .click()
}

/** The uuid of the Personal wallet every account starts with, from its link on home. */
export async function personalWalletUuid(page: Page): Promise<string> {
  const link = await page.getByRole('link', { name: 'Personal wallet' }).getAttribute('href')
  return link!.split('/').at(-1)!
}

/**
 * The sandbox operator approves the signed-in person's identity verification
 * (POST /api/sandbox/kyc/decision with the token from the vault): cards,
 * withdrawals and fiat deposits refuse anyone else with 403 KYC_REQUIRED.
 */
export async function approveIdentity(page: Page, baseUrl: string): Promise<void> {
  const tokens = await readVault(page)
  if (!tokens) throw new Error('no tokens in the vault')
  const response = await fetch(`${baseUrl}/api/sandbox/kyc/decision`, {
    method: 'POST',
    headers: {
      ...TENANT_HEADERS,
      authorization: tokens.access_token,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ status: 'APPROVED' }),
  })
  if (!response.ok) {
    throw new Error(`the KYC decision answered ${response.status}: ${await response.text()}`)
  }
}

/** Fills the sign-in screen and submits it. */
export async function signInThroughUi(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

export interface Tokens {
  access_token: string
  refresh_token: string
}

/**
 * Creates an account straight through the API, for tests about something
 * else; answers its token pair.
 */
export async function signUpThroughApi(baseUrl: string, email: string): Promise<Tokens> {
  const response = await fetch(`${baseUrl}/api/v2/auth/sign-up/password/email`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (response.status !== 201) {
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
  }
  const { access_token, refresh_token } = (await response.json()) as Tokens
  return { access_token, refresh_token }
}

/**
 * Gives the session of `accessToken` the second look (issue 21) straight
 * through the API, as a person typing the code from their e-mail would: for
 * tests that make guarded calls from outside the page (issue 26's policy).
 */
export async function stepUpThroughApi(
  baseUrl: string,
  accessToken: string,
  email: string,
): Promise<void> {
  const call = (path: string, body?: unknown) =>
    fetch(`${baseUrl}/api/v2${path}`, {
      method: 'POST',
      headers: {
        ...TENANT_HEADERS,
        authorization: `Bearer ${accessToken}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
  const before = await newestOutboxId(baseUrl, email)
  const sent = await call('/user/step-up/otp/send')
  if (!sent.ok) throw new Error(`the step-up code answered ${sent.status}: ${await sent.text()}`)
  const token = await codeFromOutbox(baseUrl, email, 'step_up', before)
  const proved = await call('/user/step-up/otp', { token })
  if (!proved.ok) throw new Error(`the step-up answered ${proved.status}: ${await proved.text()}`)
}

/**
 * A second session of the person (a password sign-in through the API),
 * stepped up: guarded calls made beside the page, while the page's own
 * session keeps whatever proof it has (none, after a password sign-in).
 */
export async function steppedUpSession(baseUrl: string, email: string): Promise<Tokens> {
  const response = await fetch(`${baseUrl}/api/v2/auth/sign-in/password/email`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`)
  const { access_token, refresh_token } = (await response.json()) as Tokens
  await stepUpThroughApi(baseUrl, access_token, email)
  return { access_token, refresh_token }
}

/**
 * Waits until a service worker controls the page. The worker claims open
 * windows when it activates; should that be missed, a reload is always
 * controlled once the worker is active.
 */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  for (let attempt = 1; attempt <= 4; attempt++) {
    const controlled = await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 10_000,
      })
      .then(
        () => true,
        () => false,
      )
    if (controlled) return
    await page.reload()
  }
  const registrations = await page.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((registration) => ({
      scope: registration.scope,
      installing: registration.installing?.state,
      waiting: registration.waiting?.state,
      active: registration.active?.state,
    })),
  )
  throw new Error(
    `no service worker took control of the page; registrations: ${JSON.stringify(registrations)}`,
  )
}

export interface VaultTokens {
  access_token: string
  refresh_token?: string | null
}

/**
 * The token pair in the app's IndexedDB vault (db "auth", store "vault", key "tokens").
 * Read again once the page settles if it navigated meanwhile (signing out ends in a
 * page load of its own, which can land just after the sign-in screen showed).
 */
export async function readVault(page: Page): Promise<VaultTokens | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readVaultOnce(page)
    } catch (error) {
      const navigated = /Execution context was destroyed|navigat/i.test(String(error))
      if (!navigated || attempt >= 5) throw error
      await page.waitForLoadState('load')
    }
  }
}

/**
 * Stores `tokens` in the app's vault (db "auth", store "vault", made when
 * missing) from `page`, as another context of the origin would; with
 * `announce`, says so on the vault's channel as the app's vault does after
 * every write, which is what makes the worker read it again.
 */
export function writeVault(page: Page, tokens: VaultTokens, announce = false): Promise<void> {
  return page.evaluate(
    async ([pair, channelName, changed]) => {
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('auth', 1)
        open.onupgradeneeded = () => open.result.createObjectStore('vault')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const write = open.result.transaction('vault', 'readwrite')
          write.objectStore('vault').put(pair, 'tokens')
          write.oncomplete = () => {
            open.result.close()
            resolve()
          }
          write.onerror = () => reject(write.error)
        }
      })
      if (!changed) return
      const channel = new BroadcastChannel(channelName)
      channel.postMessage(changed)
      channel.close()
    },
    [tokens, VAULT_CHANNEL, announce ? VAULT_CHANGED : undefined] as const,
  )
}

function readVaultOnce(page: Page): Promise<VaultTokens | undefined> {
  return page.evaluate(
    () =>
      new Promise<VaultTokens | undefined>((resolve, reject) => {
        const open = indexedDB.open('auth')
        // No database yet: do not create one, or the app's own upgrade would never run.
        let missing = false
        open.onupgradeneeded = () => {
          missing = true
          open.transaction?.abort()
        }
        open.onerror = () => (missing ? resolve(undefined) : reject(open.error))
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('vault')) {
            db.close()
            resolve(undefined)
            return
          }
          const read = db.transaction('vault').objectStore('vault').get('tokens')
          read.onerror = () => reject(read.error)
          read.onsuccess = () => {
            db.close()
            resolve(read.result as VaultTokens | undefined)
          }
        }
      }),
  )
}

/** Resolves once the access token in the vault has expired (its `exp` is in the past). */
export async function waitForAccessTokenExpiry(page: Page): Promise<void> {
  const tokens = await readVault(page)
  if (!tokens) throw new Error('no tokens in the vault')
  const payload = JSON.parse(
    Buffer.from(tokens.access_token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  ) as { exp?: number }
  if (typeof payload.exp !== 'number') throw new Error('the access token has no exp')
  // The server compares whole seconds: once the clock has passed exp, it refuses the token.
  const wait = payload.exp * 1000 + 250 - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
}

/** Sends `count` requests for the current user at once from the page; resolves to their statuses. */
export function fetchUserInParallel(page: Page, count: number): Promise<number[]> {
  return page.evaluate(
    (n) =>
      Promise.all(
        Array.from({ length: n }, () => fetch('/api/v2/user').then((response) => response.status)),
      ),
    count,
  )
}

/**
 * The newest code the sandbox "sent" to `to` (an e-mail, or a phone in any
 * format) for `purpose`, from GET /api/sandbox/outbox. Polls briefly: the
 * message is written as the code is sent, but the test may ask first. With
 * `newerThan` (a message id from `newestOutboxId`), only a code sent after it.
 */
export async function codeFromOutbox(
  baseUrl: string,
  to: string,
  purpose: 'sign_in' | 'change_email' | 'change_phone' | 'step_up' | 'password_reset',
  newerThan?: string,
): Promise<string> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const data = await outboxOf(baseUrl, to)
    const message = data.find((candidate) => candidate.purpose === purpose)
    if (message && (!newerThan || message.id > newerThan)) {
      return message.code as string
    }
    if (Date.now() > deadline) throw new Error(`no ${purpose} code for ${to} in the outbox`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The id of the newest message to `to` (UUIDv7 ids sort by time); '' when none. */
export async function newestOutboxId(baseUrl: string, to: string): Promise<string> {
  return (await outboxOf(baseUrl, to))[0]?.id ?? ''
}

async function outboxOf(baseUrl: string, to: string) {
  const response = await fetch(`${baseUrl}/api/sandbox/outbox?to=${encodeURIComponent(to)}`)
  if (!response.ok)
    throw new Error(`the outbox answered ${response.status}: ${await response.text()}`)
  const { data } = (await response.json()) as {
    data: Array<{ id: string; code: string | null; purpose: string }>
  }
  return data
}

/**
 * A valid US number nobody else in this run has: +1 201 555 XXXX. Never
 * ending in 0000, which the sandbox refuses to deliver to.
 */
export const uniqueUsPhone = () => `201555${1000 + Math.floor(Math.random() * 9000)}`

/**
 * The query keys of the snapshot the app keeps on disk for offline starts
 * (db "query-cache", store "clients", one entry per user); [] when none.
 */
export function readPersistedQueryKeys(page: Page): Promise<unknown[]> {
  return page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('query-cache')
        let missing = false
        open.onupgradeneeded = () => {
          missing = true
          open.transaction?.abort()
        }
        open.onerror = () => (missing ? resolve([]) : reject(open.error))
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('clients')) {
            db.close()
            resolve([])
            return
          }
          const read = db.transaction('clients').objectStore('clients').getAll()
          read.onerror = () => reject(read.error)
          read.onsuccess = () => {
            db.close()
            const clients = read.result as Array<{
              clientState: { queries: Array<{ queryKey: unknown }> }
            }>
            resolve(clients.flatMap((client) => client.clientState.queries.map((q) => q.queryKey)))
          }
        }
      }),
  )
}

/**
 * Answers the second look (issue 21) the way a person without a passkey
 * does: waits for the "Confirm it’s you" dialog, asks for a code, reads it
 * from the sandbox outbox and types it. The dialog closes and the app makes
 * the call it was about again.
 */
export async function confirmWithCode(page: Page, baseUrl: string, email: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
  // Another session may have had a code a moment ago: wait for the one this asks for.
  const before = await newestOutboxId(baseUrl, email)
  await dialog.getByRole('button', { name: /^Send a code to / }).click()
  const code = await codeFromOutbox(baseUrl, email, 'step_up', before)
  await dialog.getByRole('textbox', { name: '6-digit code' }).fill(code)
  await dialog.waitFor({ state: 'detached' })
}
