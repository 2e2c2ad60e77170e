import { expect, test } from 'vitest'
import {
  cardBalance,
  cardsSession,
  groupedPan,
  luhn,
  secretValue,
  storageDump,
} from '../support/cards-session.ts'
import {
  approveIdentity,
  confirmWithCode,
  personalWalletUuid,
  readVault,
  signUpThroughUi,
  stepUpThroughApi,
  uniqueEmail,
} from '../support/e2e-app.ts'
import { TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * A virtual card from issue to a cleared payment: issued and revealed in the
 * built app, with nothing of its number left in the browser's storage; frozen
 * and unfrozen on its page while the sandbox card network tries to pay.
 */

const { session, v1, placeOrder, network } = cardsSession()

const EUR = 'fc3b2351-726b-4cca-abda-4cfdcf917b0b'
const MERCHANT = { name: 'Corner Café', mcc: '5814', city: 'Berlin', country: 'DE' }

test('issue a virtual card, reveal it, freeze it and see a payment declined, unfreeze it and see one approved and cleared', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url

  const email = uniqueEmail('cards')
  await signUpThroughUi(page, base, email)
  // Issuing a card and a SEPA deposit need a verified identity.
  await approveIdentity(page, base)
  const walletUuid = await personalWalletUuid(page)

  // A virtual card on an account of its own, from the issue form.
  await page.goto(`${base}/cards/new?wallet=${walletUuid}`)
  await page.getByRole('heading', { name: 'Issue a card', level: 1 }).waitFor()
  await page.getByRole('radio', { name: 'A new account of its own' }).check()
  await page.getByRole('radio', { name: 'Virtual' }).check()
  await page.getByRole('textbox', { name: 'Card name (optional)' }).fill('Travel')
  await page.getByRole('button', { name: 'Continue' }).click()
  // The review names the program's fees before anything is issued.
  await page.getByRole('heading', { name: 'Check and confirm', level: 2 }).waitFor()
  await page.getByText('Issue fee', { exact: true }).waitFor()
  await page.getByRole('button', { name: 'Issue card' }).click()
  // Issuing makes money movable: it needs the second look (a password sign-in is not enough).
  await confirmWithCode(page, base, email)
  // The flow ends on the new card, offering to fund it: from the wallet, or to its own IBAN.
  await page.waitForURL(/\/cards\/[0-9a-f-]{36}\?issued=1$/)
  const cardId = new URL(page.url()).pathname.split('/').at(-1)!
  const offer = page.getByRole('dialog', { name: 'Your card is ready' })
  await offer
    .getByRole('region', { name: 'Pay in by bank transfer' })
    .getByText(/^DE\d\d /)
    .waitFor()
  await offer.getByRole('link', { name: 'Top up from a wallet' }).click()
  await page.getByRole('heading', { name: 'Top up a card account', level: 1 }).waitFor()
  // The card's own account is named after the card, as the card is.
  const last4 = (await v1<{ last4: string }>(page, 'GET', `/issuing/cards/${cardId}`)).last4
  expect(
    await page
      .getByRole('combobox', { name: 'Card account' })
      .locator('option:checked')
      .textContent(),
  ).toMatch(new RegExp(`^Travel ··\u00a0${last4} · prepaid · `))
  await page.getByRole('link', { name: 'Back to the card' }).click()
  await page.waitForURL(`${base}/cards/${cardId}`)
  await page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor()

  // Money for it: euros into the wallet by SEPA, then a top-up of the card's account.
  const card = await v1<{
    last4: string
    expiry_month: number
    expiry_year: number
    fiat_account: { id: string; currency: string }
  }>(page, 'GET', `/issuing/cards/${cardId}`)
  expect(card.fiat_account.currency).toBe('EUR')
  const deposit = await placeOrder(page, 'DEPOSIT_FIAT_SEPA', {
    wallet_uuid: walletUuid,
    from_uuid: EUR,
    amount_from: '100',
  })
  const reference = (deposit.deposit_instructions as { reference: string }).reference
  const transfer = await fetch(`${base}/api/sandbox/bank-transfers`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ reference, amount: '100.00', currency: 'EUR' }),
  })
  expect(transfer.status, await transfer.clone().text()).toBe(201)
  await placeOrder(page, 'TRANSFER_CARD_PREPAID', {
    wallet_uuid: walletUuid,
    from_uuid: EUR,
    amount_from: '50',
    fiat_account_id: card.fiat_account.id,
  })
  await expect
    .poll(
      async () => {
        await page.reload()
        await page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor()
        return cardBalance(page)
      },
      // The top-up settles through the job runner; a busy machine needs more than a few reloads.
      { timeout: 45_000, interval: 500 },
    )
    .toBe('€50.00')

  // The details, on request: a number that passes the Luhn check, an expiry, a CVV.
  // They appear on the card picture itself, as on the plastic.
  const details = page.getByRole('region', { name: 'Your card' })
  // The details need the second look too: the one given to issue the card still holds.
  await details.getByRole('button', { name: 'Show card details' }).click()
  const pan = (await secretValue(page, 'card-pan')).replace(/\s/g, '')
  const expiry = await secretValue(page, 'card-expiry')
  const cvv = await secretValue(page, 'card-cvv')
  expect(pan).toMatch(/^\d{16}$/)
  expect(luhn(pan)).toBe(true)
  expect(expiry).toBe(
    `${String(card.expiry_month).padStart(2, '0')}/${String(card.expiry_year % 100).padStart(2, '0')}`,
  )
  expect(cvv).toMatch(/^\d{3}$/)
  expect(pan.endsWith(card.last4)).toBe(true)

  // None of it was written anywhere the browser keeps data.
  const stored = await storageDump(page)
  const places = stored.map(([where]) => where)
  // The scan reads what the app does keep: its token vault and its offline query snapshot.
  expect(places).toEqual(
    expect.arrayContaining([
      'localStorage',
      'sessionStorage',
      'indexedDB auth/vault',
      'indexedDB query-cache/clients',
    ]),
  )
  expect(places.some((where) => where.startsWith('cache '))).toBe(true)
  for (const [where, text] of stored) {
    expect(text.includes(pan), where).toBe(false)
    expect(text.includes(groupedPan(pan)), where).toBe(false)
    expect(text.includes(`"cvv":"${cvv}"`), where).toBe(false)
    // Data the app stores (not its cached code) holds no CVV at all, under any name.
    if (!where.startsWith('cache ')) expect(text.includes(`"${cvv}"`), where).toBe(false)
  }
  await details.getByRole('button', { name: 'Hide card details' }).click()

  // Frozen, it pays nothing.
  await page.getByRole('button', { name: 'Freeze card' }).click()
  await page.getByText('Card frozen. Payments are declined until you unfreeze it.').waitFor()
  await page.getByText('Frozen', { exact: true }).first().waitFor()
  const declined = await network({
    card_id: cardId,
    type: 'AUTHORIZATION',
    amount: '12.50',
    currency: 'EUR',
    merchant: MERCHANT,
  })
  expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'CARD_FROZEN' })

  // Unfrozen, it pays: the hold, then the clearing of a smaller final amount.
  await page.getByRole('button', { name: 'Unfreeze card' }).click()
  await page.getByText('Card unfrozen. It can pay again.').waitFor()
  await page.getByRole('button', { name: 'Freeze card' }).waitFor()
  const approved = await network({
    card_id: cardId,
    type: 'AUTHORIZATION',
    amount: '12.50',
    currency: 'EUR',
    merchant: MERCHANT,
  })
  expect(approved).toMatchObject({ status: 'APPROVED', decline_reason: null })
  const cleared = await network({
    card_id: cardId,
    type: 'CLEARING',
    amount: '12.00',
    currency: 'EUR',
    authorization_id: approved.id,
  })
  expect(cleared).toMatchObject({ status: 'SETTLED', authorization_id: approved.id })

  // The card's account paid the cleared amount, and its history says how.
  await page.reload()
  await page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor()
  // A reload may first paint the snapshot kept for offline starts; the server's answer follows.
  await expect.poll(() => cardBalance(page), { timeout: 10_000 }).toBe('€38.00')
  const history = await v1<{ data: Array<{ id: string; type: string; status: string }> }>(
    page,
    'GET',
    `/issuing/transactions/?card_id=${cardId}`,
  )
  const byId = new Map(history.data.map((item) => [item.id, item]))
  expect(byId.get(declined.id)).toMatchObject({ type: 'AUTHORIZATION', status: 'DECLINED' })
  expect(byId.get(approved.id)).toMatchObject({ type: 'AUTHORIZATION', status: 'SETTLED' })
  expect(byId.get(cleared.id)).toMatchObject({ type: 'CLEARING', status: 'SETTLED' })

  // On the card page the authorisation and its clearing read as one purchase by the
  // merchant's name, newest first, for what was taken; the declined one says so.
  const rows = page.getByTestId('activity-row')
  await expect
    .poll(async () => (await rows.allTextContents()).slice(0, 2), { timeout: 15_000 })
    .toEqual([
      expect.stringMatching(/Corner Café.*−€12\.00/),
      expect.stringMatching(/Corner Café.*Declined.*€12\.50/),
    ])
})

test('a card issued whose answer was lost, then the page reloaded and the same card confirmed again: one card, one fee', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()
  const base = session.server.url

  const email = uniqueEmail('lost-answer')
  await signUpThroughUi(page, base, email)
  await approveIdentity(page, base)
  const walletUuid = await personalWalletUuid(page)

  // A EUR balance account (its cards cost €5.00 to issue) holding €20.00.
  const programs = await v1<{ data: Array<{ id: string; name: string }> }>(
    page,
    'GET',
    '/issuing/config/programs?limit=100',
  )
  const program = programs.data.find((item) => item.name === 'EUR balance account')!
  const tokens = await readVault(page)
  const opened = await fetch(`${base}/api/v2/fiat-accounts/${walletUuid}`, {
    method: 'POST',
    headers: {
      ...TENANT_HEADERS,
      authorization: `Bearer ${tokens!.access_token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ program_id: program.id }),
  })
  expect(opened.status, await opened.clone().text()).toBe(201)
  const accountId = ((await opened.json()) as { id: string }).id
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
  // A top-up from the wallet and the card to follow need the second look: given here once.
  await stepUpThroughApi(base, tokens!.access_token, email)
  await placeOrder(page, 'TRANSFER_CARD_SUBACCOUNT', {
    wallet_uuid: walletUuid,
    from_uuid: EUR,
    amount_from: '20',
    fiat_account_id: accountId,
  })
  const account = () =>
    v1<{ balance: string }>(page, 'GET', `/fiat_accounts/${accountId}`).then((a) => a.balance)
  await expect.poll(account, { timeout: 45_000, interval: 500 }).toBe('20.00')

  // The server issues the card; its answer never reaches the app (the connection drops).
  let dropped: number | undefined
  const issuing = '**/api/v1/issuing/cards/balance'
  await context.route(issuing, async (route) => {
    dropped = (await route.fetch()).status()
    await route.abort('connectionreset')
  })
  const issuePage = `${base}/cards/new?wallet=${walletUuid}&account=${accountId}`
  const confirmVirtualCard = async () => {
    await page.getByRole('heading', { name: 'Issue a card', level: 1 }).waitFor()
    await page.getByRole('radio', { name: 'An account I already have' }).check()
    await page.getByRole('radio', { name: 'Virtual' }).check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Check and confirm', level: 2 }).waitFor()
    await page.getByText('€5.00').first().waitFor()
    await page.getByRole('button', { name: 'Issue card' }).click()
  }
  await page.goto(issuePage)
  await confirmVirtualCard()
  await page.getByRole('alert').waitFor()
  expect(dropped).toBe(201)
  await context.unroute(issuing)

  // The person reloads and confirms the same card again.
  await page.reload()
  await confirmVirtualCard()
  await page.waitForURL(/\/cards\/[0-9a-f-]{36}\?issued=1$/)

  const cards = await v1<{ data: Array<{ id: string }> }>(
    page,
    'GET',
    `/issuing/cards?fiat_account_id=${accountId}&limit=100`,
  )
  expect(cards.data.map((card) => card.id)).toEqual([
    new URL(page.url()).pathname.split('/').at(-1),
  ])
  const history = await v1<{ data: Array<{ type: string; amount: string }> }>(
    page,
    'GET',
    `/fiat_accounts/${accountId}/transactions?limit=100`,
  )
  expect(history.data.filter((item) => item.type === 'FEE')).toHaveLength(1)
  expect(await account()).toBe('15.00')
})

test('a fiat account shows its own IBAN to copy; a SEPA credit to it arrives as one deposit', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const page = await context.newPage()
  const base = session.server.url
  await signUpThroughUi(page, base, uniqueEmail('iban'))
  const walletUuid = await personalWalletUuid(page)
  const programs = await v1<{ data: { id: string; currency: string; sub_account_type: string }[] }>(
    page,
    'GET',
    '/issuing/config/programs?limit=20&offset=0',
  )
  const program = programs.data.find(
    (p) => p.currency === 'EUR' && p.sub_account_type === 'balance',
  )!
  const account = await v1<{ id: string; bank_details: { iban: string } }>(
    page,
    'POST',
    '/fiat_accounts',
    { wallet_id: walletUuid, program_id: program.id },
  )
  const iban = account.bank_details.iban

  await page.goto(`${base}/accounts/${account.id}?wallet=${walletUuid}`)
  const bank = page.getByRole('region', { name: 'Pay in by bank transfer' })
  await bank.waitFor()
  await bank.getByText(iban.replace(/(.{4})(?=.)/g, '$1 ')).waitFor()
  await bank.getByRole('button', { name: 'Copy IBAN' }).click()
  await bank.getByRole('status').filter({ hasText: 'Copied' }).waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(iban)

  const credit = await fetch(`${base}/api/sandbox/sepa-credits`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ iban, amount: '75.00', currency: 'EUR', sender_name: 'Maria Keller' }),
  })
  expect(credit.status, await credit.clone().text()).toBe(201)
  await page.reload()
  await page.getByText('€75.00').first().waitFor()
  await page.goto(`${base}/activity`)
  await page.getByTestId('activity-row').filter({ hasText: 'Maria Keller' }).waitFor()
  expect(await page.getByTestId('activity-row').filter({ hasText: 'Maria Keller' }).count()).toBe(1)
  await context.close()
})
