import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CardTransaction, CardTransactionList } from '../../../contract/card-transactions.ts'
import type { Card, CardDetail, CardList } from '../../../contract/cards.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  captureLogs,
  createFiatAccount,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { FIAT } from '../issuing/default-programs.ts'
import { balance, credit, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import {
  ADDRESS,
  cardCalls,
  EUR_BALANCE,
  expectNoCardNumbers,
  ledgerAccountOf,
  ok,
  PREPAID,
  testCardKeys,
} from './card-test-support.ts'
import { ACTIVATION_TRIES, anniversary, feePeriod } from './rules.ts'
import { CARD_MONTHLY_FEE_JOB } from './service.ts'

const EUR = FIAT.EUR
const SHOP = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

describeServer('cards: delivery, activation, program fees, idempotent creation', () => {
  let app: FastifyInstance
  /** A prepaid program of the demo tenant with an issue fee of 2.50 and both form factors. */
  const FEE_PREPAID = uuidv7()
  const keys = testCardKeys()
  const logs = captureLogs()
  /** Every answer of the file, for the leak check at the end. */
  const { answers, call, person, onAccount } = cardCalls(() => app)
  /** The security code printed on a card: what its holder types to activate it. */
  const printed = (card: Card) => keys.cvvOf(app, DEMO_TENANT_ID, card.id)
  /** A 3-digit code that is not the card's. */
  const otherThan = (cvv: string) => String((Number(cvv) + 1) % 1000).padStart(3, '0')

  beforeAll(async () => {
    // The courier moves at once: the tests drive it with runDue.
    app = await createTestApp({ SANDBOX_SHIPPING_MS: '0', ...keys.env }, { logStream: logs.stream })
    await app.db
      .insertInto('card_programs')
      .values({
        id: FEE_PREPAID,
        tenant_id: DEMO_TENANT_ID,
        name: 'Test prepaid with an issue fee',
        status: 'ACTIVE',
        currency_uuid: EUR,
        form_factors: JSON.stringify(['VIRTUAL', 'PHYSICAL']),
        card_type: 'DEBIT',
        sub_account_type: 'prepaid',
        bin: '41112233',
        fee_issue_minor: '250',
        fee_monthly_minor: '0',
        fee_top_up_percent: '0',
      })
      .execute()
  })
  afterAll(() => app?.close())

  const ledgerOf = (fiatAccountId: string) => ledgerAccountOf(app, fiatAccountId)

  /** A balance account (issue fee 5.00) holding `minor`. */
  async function fundedAccount(token: string, walletId: string, minor: bigint) {
    const account = await createFiatAccount(app, token, walletId, EUR_BALANCE)
    if (minor > 0n) await credit(app.db, DEMO_TENANT_ID, await ledgerOf(account.id), EUR, minor)
    return account
  }

  async function walletEur(walletId: string) {
    const accounts = await walletAccounts(app.db, DEMO_TENANT_ID, walletId)
    return balance(app.db, accounts!.user_wallet, EUR)
  }

  const feesEur = async () =>
    balance(app.db, await systemAccount(app.db, DEMO_TENANT_ID, 'fees'), EUR)

  const cardTransactions = async (token: string, query: string) =>
    ok<CardTransactionList>(await call(token, 'GET', `/issuing/transactions/?${query}`)).data

  const cardCount = async (token: string) =>
    ok<CardList>(await call(token, 'GET', '/issuing/cards')).total

  /** Runs every due job (the courier's and the fee's) as if it were `now`. */
  const runJobs = (now = new Date()) => app.jobs.runDue({ now, limit: 1_000 })

  const network = (body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: { currency: 'EUR', ...body },
    })

  it('a physical card needs a delivery address with a known country; a virtual one refuses it', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const physical = (extra: Record<string, unknown>) =>
      call(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account.id,
        form_factor: 'PHYSICAL',
        ...extra,
      })

    const missing = expectProblem(await physical({}), 422, 'DELIVERY_ADDRESS_REQUIRED')
    expect(missing.errors).toEqual([
      { field: '/body/delivery_address', message: expect.any(String) },
    ])
    const unknown = expectProblem(
      await physical({ delivery_address: { ...ADDRESS, country: 'XX' } }),
      422,
      'INVALID_DELIVERY_ADDRESS',
    )
    expect(unknown.errors).toEqual([
      { field: '/body/delivery_address/country', message: expect.any(String) },
    ])
    for (const bad of [
      { ...ADDRESS, postal_code: '!!' },
      { ...ADDRESS, postal_code: '-1' },
      { ...ADDRESS, recipient_name: '   ' },
      { ...ADDRESS, line1: 'x'.repeat(101) },
      { ...ADDRESS, city: 'x'.repeat(61) },
      { ...ADDRESS, country: 'gb' },
      { ...ADDRESS, line2: 'a\nb' },
      { ...ADDRESS, floor: '3' },
    ]) {
      expect((await physical({ delivery_address: bad })).statusCode, JSON.stringify(bad)).toBe(422)
    }
    const virtual = expectProblem(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
        delivery_address: ADDRESS,
      }),
      422,
      'DELIVERY_ADDRESS_NOT_ALLOWED',
    )
    expect(virtual.errors).toEqual([
      { field: '/body/delivery_address', message: expect.any(String) },
    ])
    // None of the refusals made a card or took a fee.
    expect(await cardCount(token)).toBe(0)
    expect(await balance(app.db, await ledgerOf(account.id), EUR)).toBe(10_000n)
  })

  it('issues a physical card INACTIVE, delivery ORDERED; the courier ships and delivers it; the printed security code activates it', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const card = await onAccount(token, account.id, {
      form_factor: 'PHYSICAL',
      delivery_address: { ...ADDRESS, recipient_name: '  Ada Lovelace ', line2: ' ' },
    })
    expect(card).toMatchObject({
      status: 'INACTIVE',
      form_factor: 'PHYSICAL',
      delivery: { address: ADDRESS, status: 'ORDERED', updated_at: card.created_at },
    })
    const virtual = await onAccount(token, account.id)
    expect(virtual).toMatchObject({ status: 'ACTIVE', delivery: null })
    const detail = async () => ok<CardDetail>(await call(token, 'GET', `/issuing/cards/${card.id}`))
    expect((await detail()).delivery).toEqual(card.delivery)
    const listed = ok<CardList>(
      await call(token, 'GET', `/issuing/cards?fiat_account_id=${account.id}`),
    )
    expect(listed.data.map((c) => c.delivery?.status ?? null)).toEqual(['ORDERED', null])

    // Not yet activated: no secrets, no one-time code, and the network declines it.
    expect(
      expectProblem(
        await call(token, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
          encrypted_key: 'AAAA',
        }),
        409,
        'CARD_STATUS_CONFLICT',
      ).card_status,
    ).toBe('INACTIVE')
    expectProblem(
      await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`),
      409,
      'CARD_STATUS_CONFLICT',
    )
    const declined = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '1.00', merchant: SHOP }),
      201,
    )
    expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'CARD_INACTIVE' })

    const cvv = await printed(card)
    const activate = (code: string) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv: code })
    expect(expectProblem(await activate(cvv), 409, 'CARD_NOT_DELIVERED').detail).toContain(
      'ORDERED',
    )

    await runJobs()
    expect((await detail()).delivery?.status).toBe('SHIPPED')
    expect(expectProblem(await activate(cvv), 409, 'CARD_NOT_DELIVERED').detail).toContain(
      'SHIPPED',
    )
    await runJobs()
    const delivered = await detail()
    expect(delivered.delivery?.status).toBe('DELIVERED')
    expect(delivered.status).toBe('INACTIVE')
    expect(Date.parse(delivered.delivery!.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(card.delivery!.updated_at),
    )
    // The courier is done: a further run moves nothing.
    await runJobs()
    expect((await detail()).delivery).toEqual(delivered.delivery)

    expect(
      expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID').errors,
    ).toEqual([{ field: '/body/cvv', message: expect.any(String) }])
    // Nothing an answer of the API carries activates it: not the last four digits.
    for (const body of [{ last4: card.last4 }, { cvv: card.last4 }, { cvv: '1a3' }, {}]) {
      const refused = await call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, body)
      expect(refused.statusCode, JSON.stringify(body)).toBe(422)
    }
    expect(ok<Card>(await activate(cvv))).toMatchObject({
      status: 'ACTIVE',
      delivery: { status: 'DELIVERED' },
    })
    expect(expectProblem(await activate(cvv), 409, 'CARD_STATUS_CONFLICT').card_status).toBe(
      'ACTIVE',
    )
    // A virtual card is never activated: it is issued ACTIVE.
    expectProblem(
      await call(token, 'PATCH', `/issuing/cards/${virtual.id}/activate`, {
        cvv: await printed(virtual),
      }),
      409,
      'CARD_STATUS_CONFLICT',
    )
    const approved = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '1.00', merchant: SHOP }),
      201,
    )
    expect(approved.status).toBe('APPROVED')
    ok(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))

    // Another user's card: 404 like a missing one.
    const other = await person()
    expectProblem(
      await call(other.token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv }),
      404,
      'CARD_NOT_FOUND',
    )
  })

  it('a closed card’s delivery stops where it is; wrong codes are counted in the database, then 429 for the hour', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const issue = () =>
      onAccount(token, account.id, { form_factor: 'PHYSICAL', delivery_address: ADDRESS })
    const closed = await issue()
    ok(await call(token, 'DELETE', `/issuing/cards/${closed.id}`))
    await runJobs()
    await runJobs()
    const after = ok<Card>(await call(token, 'GET', `/issuing/cards/${closed.id}`))
    expect(after).toMatchObject({ status: 'CLOSED', delivery: { status: 'ORDERED' } })
    expectProblem(
      await call(token, 'PATCH', `/issuing/cards/${closed.id}/activate`, {
        cvv: await printed(closed),
      }),
      409,
      'CARD_STATUS_CONFLICT',
    )

    const card = await issue()
    await runJobs()
    await runJobs()
    const cvv = await printed(card)
    const activate = (code: string) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv: code })
    for (let i = 0; i < ACTIVATION_TRIES; i++) {
      expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID')
    }
    // The count is on the card row: a restart or another replica sees it too.
    const counted = () =>
      app.db
        .selectFrom('cards')
        .select(['activation_failures', 'activation_failed_since'])
        .where('id', '=', card.id)
        .executeTakeFirstOrThrow()
    expect((await counted()).activation_failures).toBe(ACTIVATION_TRIES)
    // Even the right code now waits for the hour to pass.
    const limited = await activate(cvv)
    expect(expectProblem(limited, 429, 'RATE_LIMITED').retry_after).toBeGreaterThan(3_500)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3_500)
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).status).toBe('INACTIVE')
    // An hour after the first wrong code the card takes tries again.
    const since = (await counted()).activation_failed_since!
    await app.db
      .updateTable('cards')
      .set({ activation_failed_since: new Date(since.getTime() - 3_600_000) })
      .where('id', '=', card.id)
      .execute()
    expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID')
    expect((await counted()).activation_failures).toBe(1)
    expect(ok<Card>(await activate(cvv)).status).toBe('ACTIVE')
  })

  it('charges the issue fee from the fiat account into fees with a FEE card transaction, in the card’s transaction', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 2_000n)
    const sub = await ledgerOf(account.id)
    const fees0 = await feesEur()
    const card = await onAccount(token, account.id)
    expect(await balance(app.db, sub, EUR)).toBe(1_500n)
    expect((await feesEur()) - fees0).toBe(500n)
    const entry = await app.db
      .selectFrom('journal_entries as e')
      .innerJoin('postings as p', 'p.entry_id', 'e.id')
      .select(['e.kind', 'p.account_id', 'p.amount_minor'])
      .where('e.idempotency_key', '=', `card:${card.id}:fee:issue`)
      .orderBy('p.amount_minor')
      .execute()
    expect(entry.map((p) => [p.kind, p.account_id, String(p.amount_minor)])).toEqual([
      ['card_fee', sub, '-500'],
      ['card_fee', await systemAccount(app.db, DEMO_TENANT_ID, 'fees'), '500'],
    ])
    const records = await cardTransactions(token, `card_id=${card.id}`)
    expect(records).toEqual([
      expect.objectContaining({
        card_id: card.id,
        card_last4: card.last4,
        fiat_account_id: account.id,
        type: 'FEE',
        fee_kind: 'ISSUE',
        status: 'SETTLED',
        amount: '5.00',
        merchant: null,
        decline_reason: null,
      }),
    ])
    // The account's own list shows it too; a purchase record carries no fee_kind.
    expect(
      (await cardTransactions(token, `fiat_account_id=${account.id}`)).map((t) => t.id),
    ).toEqual([records[0]!.id])

    // An account holding 4.99 cannot pay the 5.00: no card, nothing taken.
    const poor = await fundedAccount(token, wallet.uuid, 499n)
    const refused = expectProblem(
      await call(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: poor.id,
        form_factor: 'VIRTUAL',
      }),
      422,
      'INSUFFICIENT_FUNDS',
    )
    expect(refused.errors).toEqual([
      { field: '/body/fiat_account_id', message: expect.stringContaining('5.00 EUR') },
    ])
    expect(
      ok<CardList>(await call(token, 'GET', `/issuing/cards?fiat_account_id=${poor.id}`)).total,
    ).toBe(0)
    expect(await balance(app.db, await ledgerOf(poor.id), EUR)).toBe(499n)
    const auth = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '2.00', merchant: SHOP }),
      201,
    )
    expect(auth.fee_kind).toBeUndefined()
    await expectLedgerInvariants(app)
  })

  it('a stand-alone card pays its issue fee from the wallet (the new account is empty), recorded only there, or is not issued', async () => {
    const { token, wallet } = await person()
    const body = { wallet_uuid: wallet.uuid, program_id: FEE_PREPAID, form_factor: 'VIRTUAL' }
    const refused = expectProblem(
      await call(token, 'POST', '/issuing/cards/create', body),
      422,
      'INSUFFICIENT_FUNDS',
    )
    expect(refused.errors).toEqual([{ field: '/body/wallet_uuid', message: expect.any(String) }])
    // Nothing of the card stays: no card, no fiat account, no ledger sub-account.
    expect(await cardCount(token)).toBe(0)
    const accounts = await app.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .where('kind', '=', 'sub_account')
      .execute()
    expect(accounts).toEqual([])

    const accountsOfWallet = await walletAccounts(app.db, DEMO_TENANT_ID, wallet.uuid)
    await credit(app.db, DEMO_TENANT_ID, accountsOfWallet!.user_wallet, EUR, 1_000n)
    const card = ok<Card>(await call(token, 'POST', '/issuing/cards/create', body), 201)
    expect(await walletEur(wallet.uuid)).toBe(750n)
    expect(await balance(app.db, await ledgerOf(card.fiat_account.id), EUR)).toBe(0n)
    const history = await app.db
      .selectFrom('wallet_transactions')
      .select(['type', 'method', 'record_type', 'status', 'amount_minor', 'operation_id'])
      .where('wallet_id', '=', wallet.uuid)
      .execute()
    expect(history.map((r) => ({ ...r, amount_minor: String(r.amount_minor) }))).toEqual([
      {
        type: 'withdrawal',
        method: 'p2p',
        record_type: 'FEE',
        status: 'complete',
        amount_minor: '250',
        operation_id: card.id,
      },
    ])
    // The wallet paid, so only the wallet's history shows the fee: the card's
    // own account never held the money, and its history stays empty.
    expect(await cardTransactions(token, `card_id=${card.id}`)).toEqual([])
    expect(await cardTransactions(token, `fiat_account_id=${card.fiat_account.id}`)).toEqual([])
    const own = ok<FiatAccount>(await call(token, 'GET', `/fiat_accounts/${card.fiat_account.id}`))
    expect(own).toMatchObject({ balance: '0.00', stand_alone: true })
    // Both bases say which accounts take no other card.
    const shared = await fundedAccount(token, wallet.uuid, 0n)
    const flags = (list: { data: FiatAccount[] }) =>
      Object.fromEntries(list.data.map((a) => [a.id, a.stand_alone]))
    const expected = { [card.fiat_account.id]: true, [shared.id]: false }
    expect(
      flags(ok(await call(token, 'GET', `/fiat_accounts/list/${wallet.uuid}?show_cards=true`))),
    ).toEqual(expected)
    const v2 = await app.inject({
      method: 'GET',
      url: `/api/v2/fiat-accounts/${wallet.uuid}`,
      headers: headers({ authorization: `Bearer ${token}` }),
    })
    expect(flags(ok(v2))).toEqual(expected)
    // A stand-alone physical card: delivery address and fee alike.
    const physical = ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        ...body,
        form_factor: 'PHYSICAL',
        delivery_address: ADDRESS,
      }),
      201,
    )
    expect(physical).toMatchObject({ status: 'INACTIVE', delivery: { status: 'ORDERED' } })
    expect(await walletEur(wallet.uuid)).toBe(500n)
    await expectLedgerInvariants(app)
  })

  it('replays a creation under the same request_id or Idempotency-Key; another body is a conflict', async () => {
    const { token, wallet } = await person()
    const body = {
      wallet_uuid: wallet.uuid,
      program_id: PREPAID,
      form_factor: 'VIRTUAL',
      nick_name: 'Groceries',
      request_id: 'create-1',
    }
    const first = await call(token, 'POST', '/issuing/cards/create', body)
    const card = ok<Card>(first, 201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    // Renamed since: the replay is the first answer, as it was.
    ok(
      await call(token, 'PATCH', `/issuing/cards/${card.id}/update`, {
        nick_name: 'Food',
        request_id: 'rename-1',
      }),
    )
    const again = await call(token, 'POST', '/issuing/cards/create', {
      ...body,
      wallet_uuid: wallet.uuid.toUpperCase(),
    })
    expect(ok<Card>(again, 201)).toEqual(card)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(await cardCount(token)).toBe(1)
    expectProblem(
      await call(token, 'POST', '/issuing/cards/create', { ...body, nick_name: 'Other' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )
    // The same key on the other route is another request.
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    expectProblem(
      await call(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account.id,
        form_factor: 'VIRTUAL',
        request_id: 'create-1',
      }),
      409,
      'IDEMPOTENCY_CONFLICT',
    )

    // The header, when the body has no request_id; the fee is paid once.
    const virtual = { fiat_account_id: account.id, form_factor: 'VIRTUAL' }
    const key = { 'idempotency-key': 'balance-1' }
    const a = ok<Card>(await call(token, 'POST', '/issuing/cards/balance', virtual, key), 201)
    const b = await call(token, 'POST', '/issuing/cards/balance', virtual, key)
    expect(ok<Card>(b, 201)).toEqual(a)
    expect(b.headers['idempotent-replayed']).toBe('true')
    expect(await balance(app.db, await ledgerOf(account.id), EUR)).toBe(9_500n)
    // Keys are the caller's own: another user's same key is not theirs to replay.
    const other = await person()
    const theirs = ok<Card>(
      await call(
        other.token,
        'POST',
        '/issuing/cards/create',
        { wallet_uuid: other.wallet.uuid, program_id: PREPAID, form_factor: 'VIRTUAL' },
        key,
      ),
      201,
    )
    expect(theirs.id).not.toBe(a.id)
  })

  it('a refused creation keeps no key: the same key succeeds once it can', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 100n)
    const body = { fiat_account_id: account.id, form_factor: 'VIRTUAL', request_id: 'try' }
    expectProblem(
      await call(token, 'POST', '/issuing/cards/balance', body),
      422,
      'INSUFFICIENT_FUNDS',
    )
    await credit(app.db, DEMO_TENANT_ID, await ledgerOf(account.id), EUR, 500n)
    const card = await call(token, 'POST', '/issuing/cards/balance', body)
    ok<Card>(card, 201)
    expect(card.headers['idempotent-replayed']).toBeUndefined()
    expect(await balance(app.db, await ledgerOf(account.id), EUR)).toBe(100n)
  })

  it('a burst of the same creation at once makes one card and charges one fee', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const body = { fiat_account_id: account.id, form_factor: 'VIRTUAL', request_id: 'burst' }
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(token, 'POST', '/issuing/cards/balance', body)),
    )
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(201))
    const ids = new Set(answers.map((answer) => answer.json<Card>().id))
    expect(ids.size).toBe(1)
    expect(
      answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true'),
    ).toHaveLength(7)
    expect(await cardCount(token)).toBe(1)
    expect(await balance(app.db, await ledgerOf(account.id), EUR)).toBe(9_500n)
    await expectLedgerInvariants(app)
  })

  it('a fee and an authorisation on one shared account spend one at a time: one is paid, the other declined, never a 500', async () => {
    // Rounds of a monthly fee (card A) racing an authorisation of the whole
    // balance (card B) on one balance account.
    for (let round = 0; round < 6; round++) {
      const { token, wallet } = await person()
      // 5.00 + 5.00 issue fees, then 1.00 left: the fee or the purchase, not both.
      const account = await fundedAccount(token, wallet.uuid, 1_100n)
      const issue = () => onAccount(token, account.id)
      const a = await issue()
      const b = await issue()
      const sub = await ledgerOf(account.id)
      expect(await balance(app.db, sub, EUR)).toBe(100n)
      const due = new Date(anniversary(new Date(a.created_at), 1).getTime() + 1_000)
      const [, purchase] = await Promise.all([
        runJobs(due),
        network({ card_id: b.id, type: 'AUTHORIZATION', amount: '1.00', merchant: SHOP }),
      ])
      expect(purchase.statusCode, purchase.body).toBe(201)
      const fee = (await cardTransactions(token, `card_id=${a.id}`)).find(
        (t) => t.fee_kind === 'MONTHLY',
      )
      const auth = purchase.json<CardTransaction>()
      // Exactly one of the two took the last 1.00; the other is a DECLINED record.
      expect([fee?.status, auth.status].sort()).toEqual(
        fee?.status === 'SETTLED' ? ['DECLINED', 'SETTLED'] : ['APPROVED', 'DECLINED'],
      )
      expect(await balance(app.db, sub, EUR)).toBe(0n)
    }
    await expectLedgerInvariants(app)
  })

  it('charges the monthly fee on each anniversary; one it cannot pay is DECLINED and freezes nothing; closing stops it', async () => {
    const { token, wallet } = await person()
    // 6.50: the issue fee (5.00), one monthly fee (1.00), and 0.50 short of the next.
    const account = await fundedAccount(token, wallet.uuid, 650n)
    const sub = await ledgerOf(account.id)
    const card = await onAccount(token, account.id)
    const issued = new Date(card.created_at)
    const job = () =>
      app.db
        .selectFrom('jobs')
        .select(['run_at', 'done_at'])
        .where('kind', '=', CARD_MONTHLY_FEE_JOB)
        .where('payload', '@>', JSON.stringify({ card_id: card.id }) as never)
        .executeTakeFirstOrThrow()
    expect((await job()).run_at.toISOString()).toBe(anniversary(issued, 1).toISOString())
    // What the person was told of the monthly fees (events, oldest first).
    const told = async () =>
      (
        await app.db
          .selectFrom('events')
          .select('payload')
          .where('kind', '=', 'card.fee.charged')
          .where(sql<string>`payload->>'card_id'`, '=', card.id)
          .orderBy('id')
          .execute()
      ).map(({ payload }) => {
        const fee = payload as { fee_kind: string; amount: string; paid: boolean }
        return `${fee.fee_kind} ${fee.amount} ${fee.paid ? 'paid' : 'unpaid'}`
      })
    const monthly = async () =>
      (await cardTransactions(token, `card_id=${card.id}`))
        .filter((t) => t.fee_kind === 'MONTHLY')
        .map((t) => `${t.status} ${t.amount} ${t.decline_reason}`)

    // Not yet: a day before the anniversary nothing is charged.
    await runJobs(new Date(anniversary(issued, 1).getTime() - 86_400_000))
    expect(await monthly()).toEqual([])

    await runJobs(new Date(anniversary(issued, 1).getTime() + 1_000))
    expect(await monthly()).toEqual(['SETTLED 1.00 null'])
    expect(await balance(app.db, sub, EUR)).toBe(50n)
    const key = `card:${card.id}:fee:${feePeriod(anniversary(issued, 1))}`
    const entry = await app.db
      .selectFrom('journal_entries')
      .select('kind')
      .where('idempotency_key', '=', key)
      .execute()
    expect(entry).toEqual([{ kind: 'card_fee' }])
    expect((await job()).run_at.toISOString()).toBe(anniversary(issued, 2).toISOString())

    const second = new Date(anniversary(issued, 2).getTime() + 1_000)
    await runJobs(second)
    expect(await monthly()).toEqual(['DECLINED 1.00 INSUFFICIENT_FUNDS', 'SETTLED 1.00 null'])
    expect(await balance(app.db, sub, EUR)).toBe(50n)
    // Each told, the one not taken too (issue 28: no fee is charged or refused silently).
    expect(await told()).toEqual(['ISSUE 5.00 paid', 'MONTHLY 1.00 paid', 'MONTHLY 1.00 unpaid'])
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).status).toBe('ACTIVE')
    // The same anniversary again (a runner that died after its step) charges nothing twice.
    await app.db
      .updateTable('jobs')
      .set({ run_at: second })
      .where('kind', '=', CARD_MONTHLY_FEE_JOB)
      .where('payload', '@>', JSON.stringify({ card_id: card.id }) as never)
      .execute()
    await runJobs(second)
    expect(await monthly()).toHaveLength(2)
    expect(await told()).toHaveLength(3)

    ok(await call(token, 'DELETE', `/issuing/cards/${card.id}`))
    await runJobs(new Date(anniversary(issued, 3).getTime() + 1_000))
    expect(await monthly()).toHaveLength(2)
    expect((await job()).done_at).not.toBeNull()
    await expectLedgerInvariants(app)
  })

  it('a monthly fee job that ran late charges every anniversary it missed, once each', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 1_000n)
    const card = await onAccount(token, account.id)
    const issued = new Date(card.created_at)
    await runJobs(new Date(anniversary(issued, 3).getTime() + 1_000))
    const fees = (await cardTransactions(token, `card_id=${card.id}`)).filter(
      (t) => t.fee_kind === 'MONTHLY',
    )
    expect(fees.map((t) => t.status)).toEqual(['SETTLED', 'SETTLED', 'SETTLED'])
    expect(await balance(app.db, await ledgerOf(account.id), EUR)).toBe(200n)
    await expectLedgerInvariants(app)
  })

  it('keeps card numbers out of every answer, log line and stored row (delivery, fees, creation keys)', async () => {
    // Runs last in the file: every card issued above is checked.
    expect(answers.length).toBeGreaterThan(50)
    await expectNoCardNumbers(app, { logs: logs.lines, answers })
  })
})
