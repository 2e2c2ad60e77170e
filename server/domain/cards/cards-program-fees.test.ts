import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { beforeAll, expect, it } from 'vitest'
import type { CardTransaction, CardTransactionList } from '../../../contract/card-transactions.ts'
import type { Card, CardList } from '../../../contract/cards.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem, headers } from '../../test-support.ts'
import { balance, credit, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import { cardDeliveryFeesApp, EUR, SHOP } from './card-delivery-fees-test-support.ts'
import { ADDRESS, ok } from './card-test-support.ts'
import { anniversary, feePeriod } from './rules.ts'
import { CARD_MONTHLY_FEE_JOB } from './service.ts'

describeServer('cards: program fees, at issue and monthly', () => {
  const {
    app,
    call,
    person,
    onAccount,
    ledgerOf,
    fundedAccount,
    cardCount,
    runJobs,
    network,
    expectNoLeaks,
  } = cardDeliveryFeesApp()
  /** A prepaid program of the demo tenant with an issue fee of 2.50 and both form factors. */
  const FEE_PREPAID = uuidv7()

  beforeAll(async () => {
    await app()
      .db.insertInto('card_programs')
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

  async function walletEur(walletId: string) {
    const accounts = await walletAccounts(app().db, DEMO_TENANT_ID, walletId)
    return balance(app().db, accounts!.user_wallet, EUR)
  }

  const feesEur = async () =>
    balance(app().db, await systemAccount(app().db, DEMO_TENANT_ID, 'fees'), EUR)

  const cardTransactions = async (token: string, query: string) =>
    ok<CardTransactionList>(await call(token, 'GET', `/issuing/transactions/?${query}`)).data

  it('charges the issue fee from the fiat account into fees with a FEE card transaction, in the card’s transaction', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 2_000n)
    const sub = await ledgerOf(account.id)
    const fees0 = await feesEur()
    const card = await onAccount(token, account.id)
    expect(await balance(app().db, sub, EUR)).toBe(1_500n)
    expect((await feesEur()) - fees0).toBe(500n)
    const entry = await app()
      .db.selectFrom('journal_entries as e')
      .innerJoin('postings as p', 'p.entry_id', 'e.id')
      .select(['e.kind', 'p.account_id', 'p.amount_minor'])
      .where('e.idempotency_key', '=', `card:${card.id}:fee:issue`)
      .orderBy('p.amount_minor')
      .execute()
    expect(entry.map((p) => [p.kind, p.account_id, String(p.amount_minor)])).toEqual([
      ['card_fee', sub, '-500'],
      ['card_fee', await systemAccount(app().db, DEMO_TENANT_ID, 'fees'), '500'],
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
    expect(await balance(app().db, await ledgerOf(poor.id), EUR)).toBe(499n)
    const auth = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '2.00', merchant: SHOP }),
      201,
    )
    expect(auth.fee_kind).toBeUndefined()
    await expectLedgerInvariants(app())
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
    const accounts = await app()
      .db.selectFrom('ledger_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .where('kind', '=', 'sub_account')
      .execute()
    expect(accounts).toEqual([])

    const accountsOfWallet = await walletAccounts(app().db, DEMO_TENANT_ID, wallet.uuid)
    await credit(app().db, DEMO_TENANT_ID, accountsOfWallet!.user_wallet, EUR, 1_000n)
    const card = ok<Card>(await call(token, 'POST', '/issuing/cards/create', body), 201)
    expect(await walletEur(wallet.uuid)).toBe(750n)
    expect(await balance(app().db, await ledgerOf(card.fiat_account.id), EUR)).toBe(0n)
    const history = await app()
      .db.selectFrom('wallet_transactions')
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
    const v2 = await app().inject({
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
    await expectLedgerInvariants(app())
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
      expect(await balance(app().db, sub, EUR)).toBe(100n)
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
      expect(await balance(app().db, sub, EUR)).toBe(0n)
    }
    await expectLedgerInvariants(app())
  })

  it('charges the monthly fee on each anniversary; one it cannot pay is DECLINED and freezes nothing; closing stops it', async () => {
    const { token, wallet } = await person()
    // 6.50: the issue fee (5.00), one monthly fee (1.00), and 0.50 short of the next.
    const account = await fundedAccount(token, wallet.uuid, 650n)
    const sub = await ledgerOf(account.id)
    const card = await onAccount(token, account.id)
    const issued = new Date(card.created_at)
    const job = () =>
      app()
        .db.selectFrom('jobs')
        .select(['run_at', 'done_at'])
        .where('kind', '=', CARD_MONTHLY_FEE_JOB)
        .where('payload', '@>', JSON.stringify({ card_id: card.id }) as never)
        .executeTakeFirstOrThrow()
    expect((await job()).run_at.toISOString()).toBe(anniversary(issued, 1).toISOString())
    // What the person was told of the monthly fees (events, oldest first).
    const told = async () =>
      (
        await app()
          .db.selectFrom('events')
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
    expect(await balance(app().db, sub, EUR)).toBe(50n)
    const key = `card:${card.id}:fee:${feePeriod(anniversary(issued, 1))}`
    const entry = await app()
      .db.selectFrom('journal_entries')
      .select('kind')
      .where('idempotency_key', '=', key)
      .execute()
    expect(entry).toEqual([{ kind: 'card_fee' }])
    expect((await job()).run_at.toISOString()).toBe(anniversary(issued, 2).toISOString())

    const second = new Date(anniversary(issued, 2).getTime() + 1_000)
    await runJobs(second)
    expect(await monthly()).toEqual(['DECLINED 1.00 INSUFFICIENT_FUNDS', 'SETTLED 1.00 null'])
    expect(await balance(app().db, sub, EUR)).toBe(50n)
    // Each told, the one not taken too (issue 28: no fee is charged or refused silently).
    expect(await told()).toEqual(['ISSUE 5.00 paid', 'MONTHLY 1.00 paid', 'MONTHLY 1.00 unpaid'])
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).status).toBe('ACTIVE')
    // The same anniversary again (a runner that died after its step) charges nothing twice.
    await app()
      .db.updateTable('jobs')
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
    await expectLedgerInvariants(app())
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
    expect(await balance(app().db, await ledgerOf(account.id), EUR)).toBe(200n)
    await expectLedgerInvariants(app())
  })

  it('keeps card numbers out of every answer, log line and stored row (delivery, fees, creation keys)', async () => {
    // Runs last in the file: every card issued above is checked.
    await expectNoLeaks(35)
  })
})
