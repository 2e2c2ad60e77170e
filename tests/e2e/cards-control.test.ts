import { expect, test } from 'vitest'
import { cardsSession } from '../support/cards-session.ts'
import {
  approveIdentity,
  confirmWithCode,
  PASSWORD,
  personalWalletUuid,
  signInThroughUi,
  signUpThroughUi,
  uniqueEmail,
} from '../support/e2e-app.ts'
import { TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * Issue 30, the card's controls end to end: online payments turned off, the
 * sandbox network's online payment declined, the activity item saying why and
 * offering the fix, "Allow online payments" behind the second look, and the
 * next online payment approved; then that payment disputed from its activity
 * item ("Something wrong?"), credited at once, and the credit taken back when
 * the network decides against it.
 */

// Two second looks of one person within a minute: no resend wait between their codes.
const { session, v1, placeOrder, network } = cardsSession({ OTP_RESEND_INTERVAL: '0' })

const EUR = 'fc3b2351-726b-4cca-abda-4cfdcf917b0b'
const SHOP = { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' }

test('online payments off: declined, the activity says why, “Allow” behind the second look, the next one approved', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url

  const email = uniqueEmail('controls')
  await signUpThroughUi(page, base, email)
  await approveIdentity(page, base)
  const walletUuid = await personalWalletUuid(page)

  // A virtual card of its own account, issued from the form (the second look given there).
  await page.goto(`${base}/cards/new?wallet=${walletUuid}`)
  await page.getByRole('heading', { name: 'Issue a card', level: 1 }).waitFor()
  await page.getByRole('radio', { name: 'A new account of its own' }).check()
  await page.getByRole('radio', { name: 'Virtual' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('heading', { name: 'Check and confirm', level: 2 }).waitFor()
  await page.getByRole('button', { name: 'Issue card' }).click()
  await confirmWithCode(page, base, email)
  await page.waitForURL(/\/cards\/[0-9a-f-]{36}\?issued=1$/)
  const cardId = new URL(page.url()).pathname.split('/').at(-1)!
  const card = await v1<{ fiat_account: { id: string } }>(page, 'GET', `/issuing/cards/${cardId}`)

  // €30 on it: euros into the wallet by SEPA, then a top-up of the card's account.
  const deposit = await placeOrder(page, 'DEPOSIT_FIAT_SEPA', {
    wallet_uuid: walletUuid,
    from_uuid: EUR,
    amount_from: '50',
  })
  const transfer = await fetch(`${base}/api/sandbox/bank-transfers`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference: (deposit.deposit_instructions as { reference: string }).reference,
      amount: '50.00',
      currency: 'EUR',
    }),
  })
  expect(transfer.status, await transfer.clone().text()).toBe(201)
  await placeOrder(page, 'TRANSFER_CARD_PREPAID', {
    wallet_uuid: walletUuid,
    from_uuid: EUR,
    amount_from: '30',
    fiat_account_id: card.fiat_account.id,
  })
  const balance = () =>
    v1<{ balance: string }>(page, 'GET', `/fiat_accounts/${card.fiat_account.id}`).then(
      (account) => account.balance,
    )
  await expect.poll(balance, { timeout: 45_000, interval: 500 }).toBe('30.00')

  // Online payments off: tightening never waits for the second look.
  const controls = await v1<{ channels: Record<string, boolean> }>(
    page,
    'GET',
    `/issuing/cards/${cardId}/controls`,
  )
  await v1(page, 'PUT', `/issuing/cards/${cardId}/controls`, {
    ...controls,
    channels: { ...controls.channels, online: false },
  })
  const pay = () =>
    network({
      card_id: cardId,
      type: 'AUTHORIZATION',
      amount: '9.99',
      currency: 'EUR',
      merchant: SHOP,
      channel: 'online',
    })
  const declined = await pay()
  expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'CHANNEL_BLOCKED' })

  // Later, on another sign-in (no proof of presence yet): the activity item says why.
  await page.goto(`${base}/auth/logout`)
  await page.getByLabel('Email').waitFor()
  await signInThroughUi(page, email, PASSWORD)
  await page.waitForURL(`${base}/`)
  await page.goto(`${base}/activity/${declined.activity_id}`)
  await page.getByText('Online payments are off for this card').waitFor()
  await page.getByRole('button', { name: 'Allow online payments' }).click()
  // Loosening the controls needs the second look.
  await confirmWithCode(page, base, email)
  await page.getByText('Done. The next payment this way goes through.').waitFor()
  const after = await v1<{ channels: Record<string, boolean> }>(
    page,
    'GET',
    `/issuing/cards/${cardId}/controls`,
  )
  expect(after.channels).toEqual({ ...controls.channels, online: true })
  const approved = await pay()
  expect(approved).toMatchObject({ status: 'APPROVED', decline_reason: null })

  // Settled, then "Something wrong?": a fraud claim is credited at once, provisionally.
  await network({
    card_id: cardId,
    type: 'CLEARING',
    amount: '9.99',
    currency: 'EUR',
    authorization_id: approved.id,
  })
  await page.goto(`${base}/activity/${approved.activity_id}`)
  await page.getByRole('button', { name: 'Dispute this payment' }).click()
  await page.getByRole('radio', { name: 'I didn’t make this payment' }).check()
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('textbox', { name: 'Tell us what happened' }).fill('I never bought this.')
  await page.getByRole('button', { name: 'Send dispute' }).click()
  await page
    .getByText('Dispute sent. €9.99 is back on your card while the card network decides.')
    .waitFor()
  await page.getByText('Sent, waiting for the card network').waitFor()
  expect(await balance()).toBe('30.00')
  // The network decides against it: the credit is taken back.
  const [dispute] = (await v1<{ data: { id: string }[] }>(page, 'GET', '/issuing/disputes')).data
  const decided = await fetch(`${base}/api/sandbox/card-disputes/${dispute!.id}/decision`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'lost' }),
  })
  expect(decided.status, await decided.clone().text()).toBe(200)
  expect(await balance()).toBe('20.01')
  await page.reload()
  await page.getByText('Lost: the payment stands').waitFor()
})
