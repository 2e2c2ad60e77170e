import type { FastifyInstance } from 'fastify'
import { composeIBAN, isValidBIC, isValidIBAN } from 'ibantools'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { TokenPair } from '../../../contract/auth.ts'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import type { CardDetail } from '../../../contract/cards.ts'
import type { FiatAccount, SandboxSepaCredit } from '../../../contract/fiat-accounts.ts'
import type { ReceivingBank } from '../../providers/banking/banking.ts'
import {
  bearer,
  createFiatAccount,
  createTenant,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  DEMO_PROGRAM as PROGRAM,
  signUp,
} from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { accountNumber } from '../fiat-accounts/rules.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'

/** An IBAN that no account has (valid checksum, the platform's own collection range). */
const NOBODYS_IBAN = 'DE36100100100000000001'

describeServer('fiat accounts: their own IBAN, and SEPA credits to it', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const get = async <T>(pair: TokenPair, url: string): Promise<T> => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<T>()
  }

  /** The `fiat.credit.received` events of an account, oldest first (the outbox, as committed). */
  const creditEvents = async (accountId: string) =>
    (
      await app.db
        .selectFrom('events')
        .select(['payload'])
        .where('kind', '=', 'fiat.credit.received')
        .where(sql<string>`payload->>'fiat_account_id'`, '=', accountId)
        .orderBy('id')
        .execute()
    ).map((event) => event.payload)

  async function holder(name?: { first_name: string; last_name: string }) {
    const pair = await signUp(app)
    if (name) {
      const named = await app.inject({
        method: 'PATCH',
        url: '/api/v2/user/user-data',
        headers: headers(bearer(pair.access_token)),
        payload: name,
      })
      expect(named.statusCode, named.body).toBe(200)
    }
    const wallet = await createWallet(app, pair.access_token)
    return { pair, wallet }
  }

  const credit = (payload: object, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/sepa-credits',
      headers: { 'content-type': 'application/json', ...extra },
      payload,
    })

  const accountOf = (pair: TokenPair, account: FiatAccount) =>
    get<FiatAccount>(pair, `/fiat-accounts/${account.wallet_uuid}/${account.id}`)

  it('a euro account has an IBAN of its own (valid, ending in the four digits it is named by), the bank’s BIC and the person as holder', async () => {
    const { pair, wallet } = await holder({ first_name: 'Anna', last_name: 'Schmidt' })
    const prepaid = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.prepaid)
    const balance = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.balance)
    const usd = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.usd)

    for (const account of [prepaid, balance]) {
      const details = account.bank_details!
      expect(details).toEqual({
        iban: expect.stringMatching(/^DE[0-9]{2}100100108[0-9]{9}$/),
        bic: 'SBXBDEB1XXX',
        bank_name: 'Sandbox Bank AG',
        account_holder: 'Anna Schmidt',
      })
      expect(isValidIBAN(details.iban)).toBe(true)
      expect(isValidBIC(details.bic)).toBe(true)
      expect(details.iban.endsWith(account.account_last4)).toBe(true)
      expect((await accountOf(pair, account)).bank_details).toEqual(details)
    }
    expect(prepaid.bank_details!.iban).not.toBe(balance.bank_details!.iban)
    // Dollars are not SEPA: the program has no bank rail in.
    expect(usd.bank_details).toBeNull()

    const list = await get<{ data: FiatAccount[] }>(pair, `/fiat-accounts/${wallet.uuid}`)
    expect(list.data.map((account) => account.bank_details?.iban ?? null)).toEqual([
      prepaid.bank_details!.iban,
      balance.bank_details!.iban,
      null,
    ])
  })

  it('a person with no name yet: the holder is null', async () => {
    const { pair, wallet } = await holder()
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid)
    expect(account.bank_details).toMatchObject({ account_holder: null })
  })

  it('a SEPA credit to the IBAN credits the account once: its balance, one DEPOSIT record, one deposit item from the sender', async () => {
    const { pair, wallet } = await holder({ first_name: 'Jan', last_name: 'Novak' })
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.balance)
    const iban = account.bank_details!.iban
    const spaced = iban.toLowerCase().replace(/(.{4})/g, '$1 ')

    const response = await credit({
      iban: spaced,
      amount: '250.40',
      currency: 'eur',
      sender_name: 'Maria Keller',
      sender_iban: 'DE89 3704 0044 0532 0130 00',
      remittance: 'Rent share',
      end_to_end_id: 'E2E-RENT-1',
    })
    expect(response.statusCode, response.body).toBe(201)
    const received = response.json<SandboxSepaCredit>()
    expect(received).toEqual({
      id: expect.any(String),
      end_to_end_id: 'E2E-RENT-1',
      iban,
      amount: '250.40',
      currency: 'EUR',
      fiat_account_id: account.id,
      received_at: expect.any(String),
    })
    expect((await accountOf(pair, account)).balance).toBe('250.40')

    const records = await get<CardTransactionList>(
      pair,
      `/fiat-accounts/${wallet.uuid}/${account.id}/transactions?limit=10&offset=0`,
    )
    expect(records.data).toEqual([
      expect.objectContaining({ type: 'DEPOSIT', status: 'SETTLED', amount: '250.40' }),
    ])

    const feed = await get<ActivityPage>(pair, `/activity?fiat_account_id=${account.id}`)
    expect(feed.data).toHaveLength(1)
    expect(feed.data[0]).toMatchObject({
      type: 'deposit',
      status: 'complete',
      direction: 'in',
      amount: { amount: '250.40', currency: 'EUR', chain: null },
      counterparty_name: 'Maria Keller',
    })
    const everything = await get<ActivityPage>(pair, '/activity')
    expect(everything.data.filter((item) => item.type === 'deposit')).toHaveLength(1)
    // Told, in the credit's own transaction (issue 28: no money moves silently).
    expect(await creditEvents(account.id)).toEqual([
      {
        fiat_account_id: account.id,
        credit_id: received.id,
        amount: '250.40',
        currency: 'EUR',
        sender_name: 'Maria Keller',
        remittance: 'Rent share',
      },
    ])

    // The bank reports it again: the same credit, nothing moves twice.
    const again = await credit({
      iban,
      amount: '250.40',
      currency: 'EUR',
      sender_name: 'Maria Keller',
      end_to_end_id: 'E2E-RENT-1',
    })
    expect(again.statusCode, again.body).toBe(201)
    expect(again.json<SandboxSepaCredit>().id).toBe(received.id)
    expect((await accountOf(pair, account)).balance).toBe('250.40')
    expect(
      (await get<ActivityPage>(pair, `/activity?fiat_account_id=${account.id}`)).data,
    ).toHaveLength(1)
    expect(await creditEvents(account.id)).toHaveLength(1)

    // The same end-to-end id for another amount is another transfer: refused.
    expectProblem(
      await credit({ iban, amount: '1.00', currency: 'EUR', end_to_end_id: 'E2E-RENT-1' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    // Without an id, each report is a new credit; Idempotency-Key stands in for it.
    for (let i = 0; i < 2; i++) {
      expect(
        (await credit({ iban, amount: '0.60', currency: 'EUR' }, { 'idempotency-key': 'k-1' }))
          .statusCode,
      ).toBe(201)
    }
    expect((await accountOf(pair, account)).balance).toBe('251.00')
    await expectLedgerInvariants(app)
  })

  it('refuses an unknown IBAN, another currency, a bad amount and another tenant, naming the field; an account not ACTIVE gets nothing', async () => {
    const { pair, wallet } = await holder()
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const iban = account.bank_details!.iban
    const field = async (payload: object, code: string, name: string, extra = {}) => {
      const response = await credit(payload, extra)
      expectProblem(response, 422, code)
      expect(response.json().errors).toEqual([
        { field: `/body/${name}`, message: expect.any(String) },
      ])
    }
    await field({ iban: NOBODYS_IBAN, amount: '5', currency: 'EUR' }, 'IBAN_UNKNOWN', 'iban')
    await field({ iban, amount: '5', currency: 'USD' }, 'CURRENCY_MISMATCH', 'currency')
    await field({ iban, amount: '0', currency: 'EUR' }, 'INVALID_AMOUNT', 'amount')
    await field({ iban, amount: '1.005', currency: 'EUR' }, 'INVALID_AMOUNT', 'amount')
    const other = await createTenant(app)
    await field({ iban, amount: '5', currency: 'EUR' }, 'IBAN_UNKNOWN', 'iban', {
      'x-tenant-id': other,
    })

    await app.db
      .updateTable('fiat_accounts')
      .set({ status: 'BLOCKED' })
      .where('id', '=', account.id)
      .execute()
    expectProblem(await credit({ iban, amount: '5', currency: 'EUR' }), 409, 'ACCOUNT_UNAVAILABLE')
    expect((await accountOf(pair, account)).balance).toBe('0.00')
    expect((await get<ActivityPage>(pair, `/activity?fiat_account_id=${account.id}`)).data).toEqual(
      [],
    )
    expect(await creditEvents(account.id)).toEqual([])
  })

  it('an account opened before IBANs is given one when first read, the same after; a number taken already is drawn again', async () => {
    const { pair, wallet } = await holder()
    const older = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const other = await createFiatAccount(app, pair.access_token, wallet.uuid, PROGRAM.balance)
    // Before migration 0026 no account had an IBAN; and another account holds the first draw.
    await app.db
      .updateTable('fiat_accounts')
      .set({ iban: null })
      .where('id', '=', older.id)
      .execute()
    const taken = (await accountOf(pair, older)).bank_details
    expect(taken?.iban.slice(12)).toBe(accountNumber(older.id, 0))
    await app.db
      .updateTable('fiat_accounts')
      .set({ iban: null })
      .where('id', '=', older.id)
      .execute()
    await app.db
      .updateTable('fiat_accounts')
      .set({ iban: taken!.iban })
      .where('id', '=', other.id)
      .execute()

    const given = (await accountOf(pair, older)).bank_details!
    expect(isValidIBAN(given.iban)).toBe(true)
    expect(given.iban).not.toBe(taken!.iban)
    expect(given.iban.slice(12)).toBe(accountNumber(older.id, 1))
    expect((await accountOf(pair, older)).bank_details!.iban).toBe(given.iban)
  })
})

describeServer('fiat accounts: the bank that gives IBANs is the configured one', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
    // Another bank in the provider's place, as a real adapter would stand there.
    const other: ReceivingBank = {
      bic: 'OTHRNL2AXXX',
      bankName: 'Other Bank N.V.',
      accountIban: (accountNumber, currency) =>
        currency === 'EUR'
          ? composeIBAN({ countryCode: 'NL', bban: `OTHR${accountNumber}` })
          : null,
    }
    Object.assign(app.providers.bank, other)
  })
  afterAll(() => app?.close())

  it('an account opened on a wallet and a card’s own account both take their IBAN and BIC from it', async () => {
    const pair = await signUp(app, { stepUp: true })
    const wallet = await createWallet(app, pair.access_token)
    const account = await createFiatAccount(app, pair.access_token, wallet.uuid)
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/issuing/cards/create',
      headers: headers({ authorization: pair.access_token }),
      payload: { wallet_uuid: wallet.uuid, program_id: PROGRAM.prepaid, form_factor: 'VIRTUAL' },
    })
    const card = ok<CardDetail>(created, 201)
    const detail = ok<CardDetail>(
      await app.inject({
        method: 'GET',
        url: `/api/v1/issuing/cards/${card.id}`,
        headers: headers({ authorization: pair.access_token }),
      }),
    )

    for (const details of [account.bank_details, detail.fiat_account.bank_details]) {
      expect(details).toMatchObject({
        iban: expect.stringMatching(/^NL[0-9]{2}OTHR[0-9]{10}$/),
        bic: 'OTHRNL2AXXX',
        bank_name: 'Other Bank N.V.',
      })
      expect(isValidIBAN(details!.iban)).toBe(true)
    }
  })
})
