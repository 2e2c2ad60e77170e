import type { Locator, Page } from 'playwright-core'
import { expect, test } from 'vitest'
import {
  approveIdentity,
  confirmWithCode,
  openTab,
  personalWalletUuid,
  signUpThroughUi,
  uniqueEmail,
} from '../support/e2e-app.ts'
import { e2eSession, TENANT_HEADERS } from '../support/e2e-server.ts'

/*
 * Money moving through the built app: euros in by a SEPA deposit, out to a
 * saved counterparty by a SEPA transfer; ether in from the sandbox chain and
 * exchanged at a live quote. Every order is followed on screen to its end.
 */

const session = e2eSession({
  // The sandbox bank settles a payout after half a second, the chain mints a
  // block every 100 ms, and the job runner looks for work ten times a second.
  SANDBOX_BANK_MS: '500',
  SANDBOX_BLOCK_MS: '100',
  JOBS_POLL_MS: '100',
  DEMO_SEED: 'false',
})

/** A test IBAN the sandbox bank pays out to (docs/api.md); one ending 0000 would bounce. */
const IBAN = 'DE89370400440532013000'

test('deposit euros by SEPA, add a counterparty with a SEPA account, send to it and see it complete', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()

  const email = uniqueEmail('orders-sepa')
  await signUpThroughUi(page, session.server.url, email)
  // SEPA deposits and payouts need a verified identity.
  await approveIdentity(page, session.server.url)
  await personalWalletUuid(page)

  // Deposit: the bank rail, the amount, the review, then the bank details with a reference.
  await moneyAction(page, 'Deposit')
  await page.getByRole('combobox', { name: 'Currency' }).selectOption({ label: 'EUR' })
  await page.getByRole('radio', { name: /^SEPA/ }).check()
  await page.getByRole('textbox', { name: 'You deposit (EUR)' }).fill('1000')
  await priceAnnounced(page, '€1,000.00 arrives, €1,000.00 in all')
  await page.getByRole('button', { name: 'Review' }).click()
  await page.getByRole('heading', { name: 'Check and confirm' }).waitFor()
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByRole('heading', { name: 'Now send your bank transfer' }).waitFor()
  await page
    .getByRole('status')
    .filter({ hasText: /^In progress$/ })
    .waitFor()
  const instructions = page.getByRole('region', { name: 'Send your bank transfer to' })
  expect(await instructions.innerText()).toMatch(/Amount\s+€1,000\.00/)
  const reference = (await instructions.getByText(/^FP-\w{4}-\w{4}$/).textContent())?.trim()
  expect(reference).toMatch(/^FP-\w{4}-\w{4}$/)

  // The money arrives at the platform's bank with that reference.
  const transfer = await fetch(`${session.server.url}/api/sandbox/bank-transfers`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ reference, amount: '1000.00', currency: 'EUR' }),
  })
  expect(transfer.status, await transfer.clone().text()).toBe(201)

  await page.getByRole('button', { name: 'Done' }).click()
  await page.waitForURL('**/wallets/*')
  await balance(page, /Available: €1,000\.00/).waitFor()
  // One line in words for the transfer that came in, signed as money in.
  await activityRow(page, 'Bank transfer in', '+€1,000.00').waitFor()

  // A person to pay, then their bank account.
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Counterparties/ })
    .click()
  await page.getByRole('heading', { name: 'Counterparties' }).waitFor()
  await page.getByRole('link', { name: 'Add counterparty' }).first().click()
  await page.getByRole('heading', { name: 'New counterparty' }).waitFor()
  await page.getByRole('radio', { name: 'Person' }).check()
  await page.getByRole('textbox', { name: 'First name' }).fill('Anna')
  await page.getByRole('textbox', { name: 'Last name' }).fill('Schmidt')
  await page.getByRole('combobox', { name: 'Country', exact: true }).selectOption('DE')
  await page.getByRole('button', { name: 'Save counterparty' }).click()
  await page.getByRole('heading', { name: 'Anna Schmidt', level: 1 }).waitFor()

  const destinations = page.getByRole('region', { name: 'Destinations' })
  await destinations.getByRole('button', { name: 'Add destination' }).click()
  await destinations.getByRole('combobox', { name: 'Type', exact: true }).selectOption('SEPA')
  await destinations.getByRole('textbox', { name: 'IBAN', exact: true }).fill(IBAN)
  await destinations
    .getByRole('textbox', { name: 'Name for this destination (optional)' })
    .fill('Main account')
  await destinations.getByRole('button', { name: 'Add destination' }).click()
  // A new payee needs the second look; it then counts for the payout a moment later.
  await confirmWithCode(page, session.server.url, email)
  await destinations.getByText('Destination added.').waitFor()
  await destinations.getByText('DE89 3704 0044 0532 0130 00').waitFor()

  // Send from the destination itself: the form opens with the recipient and euros chosen.
  await destinations.getByRole('link', { name: 'Send: Main account' }).click()
  await page.waitForURL(/\/send\?/)
  const recipient = page.getByRole('combobox', { name: 'Recipient' })
  await expect.poll(() => selectedText(recipient), { timeout: 10_000 }).toBe('Anna Schmidt')
  await page.getByRole('textbox', { name: 'You send (EUR)' }).fill('100')
  await priceAnnounced(page, '€100.00 arrives, €101.00 in all')
  const price = await page.getByRole('region', { name: 'Price' }).innerText()
  expect(price).toMatch(/You send\s+€100\.00/)
  expect(price).toMatch(/Fee\s+€1\.00/)
  expect(price).toMatch(/Total charged\s+€101\.00/)
  expect(price).toMatch(/Recipient gets\s+€100\.00/)

  await page.getByRole('button', { name: 'Review' }).click()
  const review = page.getByRole('region', { name: 'Check and confirm' })
  await review.waitFor()
  const reviewed = await review.innerText()
  expect(reviewed).toMatch(/Fee\s+€1\.00/)
  expect(reviewed).toMatch(/Total charged\s+€101\.00/)
  expect(reviewed).toMatch(/To\s+Anna Schmidt/)
  expect(reviewed).toMatch(/This price holds for \d+ s\./)
  // The account in full, read again for the review: what is checked is what is paid.
  await expect
    .poll(() => review.innerText(), { timeout: 5_000 })
    .toMatch(/IBAN\s+DE89 3704 0044 0532 0130 00/)
  await review.getByRole('button', { name: 'Confirm' }).click()

  // The result follows the order: accepted, handed to the bank, paid out; its headline says each.
  const result = page.getByRole('region', {
    name: /^(Transfer placed|Your transfer is on its way|Transfer sent)$/,
  })
  await result.waitFor()
  await result
    .getByRole('status')
    .filter({ hasText: /^Complete$/ })
    .waitFor({ timeout: 20_000 })
  await page.getByRole('region', { name: 'Transfer sent' }).waitFor()
  const steps = result.getByRole('list', { name: 'Order progress' }).getByRole('listitem')
  await expect
    .poll(() => steps.allInnerTexts(), { timeout: 5_000 })
    .toEqual([
      expect.stringMatching(/\bAccepted\b/),
      expect.stringMatching(/\bIn progress\b/),
      expect.stringMatching(/\bComplete\b/),
    ])

  // The wallet paid the total: the amount and the fee.
  await result.getByRole('button', { name: 'Done' }).click()
  await page.waitForURL('**/wallets/*')
  await balance(page, /Available: €899\.00/).waitFor()
  // The send is one line to the person, for what it cost in all (the fee included).
  await activityRow(page, 'To Anna Schmidt', '−€101.00').waitFor({ timeout: 15_000 })

  // The order history has both, each at its end.
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Orders/ })
    .click()
  await page.getByRole('heading', { name: 'Orders', exact: true, level: 1 }).waitFor()
  await orderRow(page, 'SEPA deposit', 'Complete').waitFor()
  await orderRow(page, 'SEPA transfer', 'Complete').waitFor()
  expect(await page.getByTestId('order-row').count()).toBe(2)
})

test('exchange ether for USDT at a live quote and see both balances change', async () => {
  const context = await session.newContext({ locale: 'en-US' })
  const page = await context.newPage()

  await signUpThroughUi(page, session.server.url, uniqueEmail('orders-exchange'))
  const walletUuid = await personalWalletUuid(page)

  // An Ethereum address from the Deposit screen, and ether sent to it on the sandbox chain.
  await moneyAction(page, 'Deposit')
  await page.getByRole('combobox', { name: 'Currency' }).selectOption({ label: 'ETH · Ethereum' })
  await page.getByRole('button', { name: 'Get an address' }).click()
  const address = (await page.getByTestId('deposit-address').textContent())?.trim()
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await page.getByRole('img', { name: `QR code of the address ${address}` }).waitFor()

  const deposit = await fetch(`${session.server.url}/api/sandbox/deposits`, {
    method: 'POST',
    headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({
      wallet_uuid: walletUuid,
      chain: 'ethereum',
      currency: 'ETH',
      amount: '0.5',
    }),
  })
  expect(deposit.status, await deposit.clone().text()).toBe(202)

  await openTab(page, 'Home')
  await page.getByRole('link', { name: 'Personal wallet' }).click()
  await page.waitForURL('**/wallets/*')
  await activityRow(page, 'ETH deposit', '+0.5\u00a0ETH').waitFor({ timeout: 20_000 })
  await balance(page, /Available: 0\.5\sETH/).waitFor()

  // The exchange form: ether into USDT on Ethereum, an amount typed as people type.
  const calcs: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/orders/calc') calcs.push(request.url())
  })
  await page
    .getByRole('navigation', { name: 'Money actions' })
    .getByRole('link', { name: 'Exchange' })
    .click()
  await page.getByRole('heading', { name: 'Exchange', exact: true, level: 1 }).waitFor()
  await selectOptionStartingWith(page.getByRole('combobox', { name: 'From' }), 'ETH · Ethereum')
  await selectOptionStartingWith(
    page.getByRole('combobox', { name: 'To', exact: true }),
    'USDT · Ethereum',
  )
  const amount = page.getByRole('textbox', { name: 'You pay (ETH)' })
  await amount.pressSequentially('0.125', { delay: 40 })

  const announced = await priceAnnounced(page, /USDT arrives, [\d.,]+\sETH in all/)
  const [, receivedText, totalText] =
    /New price: ([\d.,]+)\sUSDT arrives, ([\d.,]+)\sETH in all/.exec(announced) ?? []
  const price = page.getByRole('region', { name: 'Price' })
  const lines = await price.innerText()
  expect(lines).toMatch(/You pay\s+0\.125\sETH/)
  expect(lines).toMatch(/Fee \(0\.1 %\)\s+0\.000125\sETH/)
  expect(lines).toMatch(new RegExp(`Total charged\\s+${literal(totalText!)}\\sETH`))
  expect(lines).toMatch(/Rate\s+1\sETH = [\d,.]+\sUSDT/)
  expect(lines).toMatch(new RegExp(`You receive\\s+${literal(receivedText!)}\\sUSDT`))
  expect(units(totalText!, 18)).toBe(units('0.125125', 18))
  // The "you receive" side is filled in from the quote.
  const filledIn = await page.getByRole('textbox', { name: 'You receive (USDT)' }).inputValue()
  expect(units(filledIn, 6)).toBe(units(receivedText!, 6))
  // Typing settles before a quote is asked for: one request for "0.125", not one per key.
  expect(calcs.length).toBeGreaterThanOrEqual(1)
  expect(calcs.length).toBeLessThanOrEqual(2)

  // The price holds for a while, and the countdown says so second by second.
  const countdown = price.getByText(/^Price fixed for \d+ s$/)
  const first = secondsIn(await countdown.innerText())
  expect(first).toBeGreaterThan(5)
  await expect
    .poll(async () => secondsIn(await countdown.innerText()), { timeout: 10_000 })
    .toBeLessThan(first)

  await page.getByRole('button', { name: 'Review' }).click()
  const review = page.getByRole('region', { name: 'Check and confirm' })
  await review.waitFor()
  const reviewed = await review.innerText()
  // The rate reads with the currency worth more on the left.
  expect(reviewed).toMatch(/Rate\s+1\sETH = [\d,]+(\.\d+)?\sUSDT/)
  expect(reviewed).toMatch(new RegExp(`Total charged\\s+${literal(totalText!)}\\sETH`))
  expect(reviewed).toMatch(new RegExp(`You receive\\s+${literal(receivedText!)}\\sUSDT`))
  // A double tap places one order: the balances below and the history say so.
  await review.getByRole('button', { name: 'Confirm' }).dblclick()

  const result = page.getByRole('region', {
    name: /^(Exchange placed|Your exchange is under way|Exchange done)$/,
  })
  await result.waitFor()
  await result.getByText(`${receivedText}\u00a0USDT`).waitFor()
  await result
    .getByRole('status')
    .filter({ hasText: /^Complete$/ })
    .waitFor({ timeout: 20_000 })
  await page.getByRole('region', { name: 'Exchange done' }).waitFor()

  // The result is in the address: a reload shows it again, and back leaves the flow
  // (the spent review is not in the history) for the wallet it started from.
  expect(new URL(page.url()).searchParams.get('step')).toBeNull()
  expect(new URL(page.url()).searchParams.get('order')).toMatch(/^[0-9a-f-]{36}$/)
  await page.reload()
  await page.getByRole('region', { name: 'Exchange done' }).waitFor()
  await page.goBack()
  await page.waitForURL('**/wallets/*')
  const ethLeft = units('0.5', 18) - units(totalText!, 18)
  await balance(page, new RegExp(`Available: ${literal(amountText(ethLeft, 18))}\\sETH`)).waitFor()
  await balance(page, new RegExp(`Available: ${literal(receivedText!)}\\sUSDT`)).waitFor()

  await page
    .getByRole('main')
    .getByRole('link', { name: /^Orders/ })
    .click()
  await page.getByRole('heading', { name: 'Orders', exact: true, level: 1 }).waitFor()
  await orderRow(page, 'Exchange', 'Complete').waitFor()
  expect(await page.getByTestId('order-row').count()).toBe(1)

  // Home tells the exchange as one thing that happened: one row, in words, with both sides.
  await openTab(page, 'Home')
  const recent = page.getByRole('region', { name: 'Recent activity' })
  const exchanged = recent.getByTestId('activity-row').filter({ hasText: 'Exchange ETH → USDT' })
  await exchanged.waitFor({ timeout: 15_000 })
  expect(await exchanged.count()).toBe(1)
  const row = await exchanged.innerText()
  expect(row).toContain(`+${receivedText}\u00a0USDT`)
  expect(row).toContain(`−${totalText}\u00a0ETH`)
  // Nothing of the ledger's three records shows on its own.
  expect(await recent.getByTestId('activity-row').count()).toBe(2)
  expect(await recent.innerText()).not.toMatch(/Withdrawal|Deposit \+/)

  // Its detail: plain words first, the ledger's records one tap deeper.
  await exchanged.click()
  await page.getByRole('heading', { name: 'Exchange ETH → USDT', level: 1 }).waitFor()
  expect(await page.getByRole('main').innerText()).toMatch(/Rate\s+1\sETH = [\d,]+(\.\d+)?\sUSDT/)
  await page.getByText('Technical details').waitFor()

  // The other way round the API quotes a small number; the screen still puts ETH first.
  await openTab(page, 'Home')
  await moneyAction(page, 'Exchange')
  await selectOptionStartingWith(page.getByRole('combobox', { name: 'From' }), 'USDT · Ethereum')
  await selectOptionStartingWith(
    page.getByRole('combobox', { name: 'To', exact: true }),
    'ETH · Ethereum',
  )
  await page.getByRole('textbox', { name: 'You pay (USDT)' }).fill('10')
  await priceAnnounced(page, /ETH arrives/)
  expect(await page.getByRole('region', { name: 'Price' }).innerText()).toMatch(
    /Rate\s+1\sETH = [\d,]+(\.\d+)?\sUSDT/,
  )
})

/** One of the money actions on the home screen or a wallet's page. */
async function moneyAction(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Money actions' })
    .getByRole('link', { name, exact: true })
    .click()
  await page.getByRole('heading', { name, exact: true, level: 1 }).waitFor()
}

/** Waits for the live price the screen announces ("New price: … arrives, … in all."); its text. */
async function priceAnnounced(page: Page, text: string | RegExp): Promise<string> {
  const status = page
    .getByRole('status')
    .filter({ hasText: /^New price: / })
    .filter({ hasText: text })
  await status.waitFor({ state: 'attached' })
  return (await status.textContent()) ?? ''
}

function balance(page: Page, text: RegExp): Locator {
  return page.getByTestId('balance').filter({ hasText: text })
}

function orderRow(page: Page, type: string, status: string): Locator {
  return page.getByTestId('order-row').filter({ hasText: type }).filter({ hasText: status })
}

/** A line of the activity feed: its title in words and its signed amount. */
function activityRow(page: Page, title: string, amount: string): Locator {
  return page
    .getByTestId('activity-row')
    .filter({ hasText: title })
    .filter({ hasText: amount.replaceAll(' ', '\u00a0') })
}

/** The text of a select's chosen option. */
function selectedText(select: Locator): Promise<string> {
  return select.evaluate((element) => {
    const chosen = (element as HTMLSelectElement).selectedOptions[0]
    return chosen?.textContent ?? ''
  })
}

/** Picks the option whose label starts with `label` ("USDT · Ethereum — 0.00 available"). */
async function selectOptionStartingWith(select: Locator, label: string) {
  const option = select.locator('option', { hasText: new RegExp(`^${literal(label)}`) })
  await option.waitFor({ state: 'attached' })
  await select.selectOption((await option.getAttribute('value'))!)
}

const secondsIn = (text: string) => Number(/(\d+) s/.exec(text)?.[1])

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** "1,234.5" → minor units at `decimals`. */
function units(text: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = text.replaceAll(',', '').split('.')
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals))
}

/**
 * Minor units as the app writes a crypto amount in English: grouped, trailing
 * zeros trimmed, at most 8 fraction digits (cut, never rounded up).
 */
function amountText(minor: bigint, decimals: number): string {
  const digits = minor.toString().padStart(decimals + 1, '0')
  const whole = BigInt(digits.slice(0, -decimals)).toLocaleString('en-US')
  const fraction = digits.slice(-decimals).slice(0, 8).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}
