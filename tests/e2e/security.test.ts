import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import {
  approveIdentity,
  confirmWithCode,
  expectSignedInAs,
  personalWalletUuid,
  readVault,
  signUpThroughUi,
  steppedUpSession,
  uniqueEmail,
} from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * Issue 21 in Chromium with a virtual authenticator (CDP WebAuthn domain):
 * a card revealed after the second look, a passkey registered on the
 * security page, the session signed out, and a sign-in with the passkey.
 * WebAuthn needs a secure context whose host is the RP id: the app is opened
 * at http://localhost:PORT (the server's default relying party).
 */

// Two sessions of one person each ask for a step-up code within a minute: no resend wait.
const session = e2eSession({ DEMO_SEED: 'false', OTP_RESEND_INTERVAL: '0' })

const PREPAID = 'Virtual EUR prepaid'

/** A platform authenticator that holds discoverable credentials and always verifies the user. */
async function addVirtualAuthenticator(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length
}

async function v1<T>(page: Page, base: string, method: string, path: string, body?: unknown) {
  const tokens = await readVault(page)
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...TENANT_HEADERS,
      authorization: tokens!.access_token,
      'content-type': 'application/json',
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  expect(response.status, await response.clone().text()).toBeLessThan(300)
  return (await response.json()) as T
}

test('reveal a card after the second look; register a passkey, sign out, sign in with it', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url.replace('127.0.0.1', 'localhost')
  const stored = await addVirtualAuthenticator(page)

  const email = uniqueEmail('passkey')
  await signUpThroughUi(page, base, email)
  await approveIdentity(page, base)
  const walletUuid = await personalWalletUuid(page)

  // A virtual prepaid card of its own, issued through the API from another session of the
  // person's that gave the second look (issuing needs it): the card is not the point, and
  // this page's session stays without a proof.
  const programs = await v1<{ data: Array<{ id: string; name: string }> }>(
    page,
    base,
    'GET',
    '/issuing/config/programs?limit=100',
  )
  const program = programs.data.find((item) => item.name === PREPAID)!
  const beside = await steppedUpSession(base, email)
  const issued = await fetch(`${base}/api/v1/issuing/cards/create`, {
    method: 'POST',
    headers: {
      ...TENANT_HEADERS,
      authorization: beside.access_token,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      wallet_uuid: walletUuid,
      program_id: program.id,
      form_factor: 'VIRTUAL',
    }),
  })
  expect(issued.status, await issued.clone().text()).toBe(201)
  const card = (await issued.json()) as { id: string; last4: string }

  // Reveal → asked for a second look (a password sign-in is no proof) → revealed.
  await page.goto(`${base}/cards/${card.id}`)
  const details = page.getByRole('region', { name: 'Your card' })
  await details.getByRole('button', { name: 'Show card details' }).click()
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
  await dialog.waitFor()
  // No passkey yet: the code is the way offered.
  expect(await dialog.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0)
  await confirmWithCode(page, base, email)
  const number = page.getByTestId('card-pan')
  await number.waitFor()
  expect((await number.innerText()).replace(/\D/g, '')).toMatch(
    new RegExp(`^\\d{12}${card.last4}$`),
  )

  // A passkey from the security page (the proof just given still counts: no second question).
  await page.goto(`${base}/profile/security`)
  await page.getByRole('heading', { name: 'Sign-in and security', level: 1 }).waitFor()
  await page.getByText('You have no passkeys yet.').waitFor()
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByText('Passkey added. Next time, sign in with it.').waitFor()
  expect(await stored()).toBe(1)
  const sessions = page.getByRole('region', { name: 'Where you’re signed in' })
  await sessions.getByText('This device').waitFor()

  // Sign out, then in again with the passkey alone.
  await page.goto(`${base}/profile`)
  await page.locator('#main').getByRole('link', { name: 'Sign out' }).click()
  await page.waitForURL('**/auth/sign-in')
  // The quiet request behind the e-mail field (conditional UI) may already be answered by the
  // virtual authenticator, which needs no one to pick the passkey; else the button asks. (Both
  // answered would be two sign-ins, two sessions: the button only when the quiet one did not.)
  const quietly = await page
    .getByTestId('signed-in-as')
    .waitFor({ timeout: 2_000 })
    .then(
      () => true,
      () => false,
    )
  if (!quietly) {
    await page
      .getByRole('button', { name: 'Sign in with a passkey' })
      .click({ timeout: 5_000 })
      .catch(() => undefined)
  }
  await expectSignedInAs(page, email)
  const signedIn = await readVault(page)
  const sessionsNow = await fetch(`${base}/api/v2/user/sessions`, {
    headers: { ...TENANT_HEADERS, authorization: `Bearer ${signedIn!.access_token}` },
  })
  const current = (
    (await sessionsNow.json()) as {
      data: { current: boolean; sign_in_method: string }[]
    }
  ).data.find((s) => s.current)
  expect(current?.sign_in_method).toBe('passkey')

  // The passkey sign-in is itself a proof: the card reveals without a question.
  await page.goto(`${base}/cards/${card.id}`)
  await page
    .getByRole('region', { name: 'Your card' })
    .getByRole('button', { name: 'Show card details' })
    .click()
  await number.waitFor()
  expect(await page.getByRole('dialog', { name: 'Confirm it’s you' }).count()).toBe(0)

  // The security page lists the passkey as used.
  await page.goto(`${base}/profile/security`)
  await page.getByText(/last used/).waitFor()

  // The session beside this one sets up a webhook; signing the others out names it, and
  // removes it when asked (the passkey sign-in is the proof: no question before).
  const hook = 'http://127.0.0.1:9/elsewhere'
  const added = await fetch(`${base}/api/v1/developer/webhooks`, {
    method: 'POST',
    headers: {
      ...TENANT_HEADERS,
      authorization: beside.access_token,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url: hook }),
  })
  expect(added.status, await added.clone().text()).toBe(201)
  await page.reload()
  const devices = page.getByRole('region', { name: 'Where you’re signed in' })
  // The row names the webhook by its host; the question before removing it, by its whole URL.
  await devices.getByText(`Set up: webhook ${new URL(hook).host}`).waitFor()
  await devices.getByRole('button', { name: 'Sign out of all other devices' }).click()
  await page
    .getByRole('dialog', { name: 'Sign out of all other devices?' })
    .getByRole('button', { name: 'Sign out of all other devices' })
    .click()
  const removal = page.getByRole('dialog', { name: 'Also remove what they set up?' })
  await removal.getByText(`webhook ${hook}`).waitFor()
  await removal.getByRole('button', { name: 'Sign out and remove' }).click()
  await devices.getByText('Signed out of other devices: 1. Removed what they set up: 1.').waitFor()
  const webhooks = await v1<{ data: unknown[] }>(page, base, 'GET', '/developer/webhooks')
  expect(webhooks.data).toEqual([])
})
