import { expect, it } from 'vitest'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem } from '../../test-support.ts'
import { balance, credit, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { cardDeliveryFeesApp, EUR } from './card-delivery-fees-test-support.ts'
import { ok, PREPAID } from './card-test-support.ts'

describeServer('cards: idempotent creation', () => {
  const { app, call, person, ledgerOf, fundedAccount, cardCount, expectNoLeaks } =
    cardDeliveryFeesApp()

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
    expect(await balance(app().db, await ledgerOf(account.id), EUR)).toBe(9_500n)
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
    await credit(app().db, DEMO_TENANT_ID, await ledgerOf(account.id), EUR, 500n)
    const card = await call(token, 'POST', '/issuing/cards/balance', body)
    ok<Card>(card, 201)
    expect(card.headers['idempotent-replayed']).toBeUndefined()
    expect(await balance(app().db, await ledgerOf(account.id), EUR)).toBe(100n)
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
    expect(await balance(app().db, await ledgerOf(account.id), EUR)).toBe(9_500n)
    await expectLedgerInvariants(app())
  })

  it('keeps card numbers out of every answer, log line and stored row (delivery, fees, creation keys)', async () => {
    // Runs last in the file: every card issued above is checked.
    await expectNoLeaks(15)
  })
})
