import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  createFiatAccount,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  stepUp,
  uniqueEmail,
} from '../../test-support.ts'
import { eventKinds, userIdOf } from '../events/events-test-support.ts'
import { FIAT } from '../issuing/default-programs.ts'
import { credit } from '../ledger/ledger-test-support.ts'
import { CUR, fund, insertFiatAccount, place, quote } from '../orders/order-fixtures.ts'
import { ADDRESS, EUR_BALANCE, ledgerAccountOf, ok } from './card-test-support.ts'

/*
 * Issue 26, findings 1 and 4: with only a stolen access token (a session that
 * gave no proof of presence), nothing that makes a card's money movable goes
 * through — issuing one to an address, topping it up from the wallet,
 * activating, unfreezing, raising its limits, its 3-D Secure code, closing it.
 * The owner, stepped up, does each; lowering limits never waits for a proof.
 */
describeServer('cards: the second look before money is made movable', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // The owner steps up in several sessions within a minute.
    app = await createTestApp({ OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const v1 = (
    token: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: headers({ authorization: token }),
      ...(body && { payload: body }),
    })

  /**
   * The owner (stepped up) with a funded EUR balance account, and a thief
   * holding a token of another session of theirs that never stepped up.
   */
  async function ownerAndThief() {
    const email = uniqueEmail('card-owner')
    const owner: TokenPair = await signUp(app, { email, stepUp: true })
    const thief = (await signIn(app, { email })).json<TokenPair>().access_token
    const wallet = await createWallet(app, owner.access_token)
    const account = await createFiatAccount(app, owner.access_token, wallet.uuid, EUR_BALANCE)
    await credit(app.db, DEMO_TENANT_ID, await ledgerAccountOf(app, account.id), FIAT.EUR, 90_000n)
    return { owner: owner.access_token, pair: owner, thief, wallet, account }
  }

  /** The owner's virtual card on their account. */
  const virtualCard = async (owner: string, account: string) =>
    ok<Card>(
      await v1(owner, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account,
        form_factor: 'VIRTUAL',
      }),
      201,
    )

  const cardCount = async (token: string) =>
    ok<{ total: number }>(await v1(token, 'GET', '/issuing/cards')).total

  it('a stolen token issues no card to its own address; the owner, stepped up, does, and is told', async () => {
    const { owner, pair, thief, wallet, account } = await ownerAndThief()
    const physical = {
      fiat_account_id: account.id,
      form_factor: 'PHYSICAL',
      delivery_address: { ...ADDRESS, recipient_name: 'Mallory', city: 'Elsewhere' },
    }
    const refused = expectProblem(
      await v1(thief, 'POST', '/issuing/cards/balance', physical),
      403,
      'STEP_UP_REQUIRED',
    )
    expect(refused.methods).toEqual(['otp'])
    expectProblem(
      await v1(thief, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: EUR_BALANCE,
        form_factor: 'VIRTUAL',
      }),
      403,
      'STEP_UP_REQUIRED',
    )
    expect(await cardCount(owner)).toBe(0)

    const card = ok<Card>(await v1(owner, 'POST', '/issuing/cards/balance', physical), 201)
    const userId = await userIdOf(app, pair)
    expect(await eventKinds(app, userId)).toContain('card.issued')
    const told = await app.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('kind', '=', 'card.issued')
      .executeTakeFirstOrThrow()
    expect(told.payload).toEqual({
      card_id: card.id,
      last4: card.last4,
      form_factor: 'PHYSICAL',
      delivery_to: 'Elsewhere, GB',
    })
  })

  it('a stolen token cannot top a card account up from the wallet (TRANSFER_CARD_*)', async () => {
    const { owner, thief, wallet } = await ownerAndThief()
    const user = { token: owner, walletId: wallet.uuid }
    await fund(app.db, wallet.uuid, CUR.USDT_TRON, '1000')
    const account = await insertFiatAccount(app.db, wallet.uuid, { subAccountType: 'balance' })
    const q = await quote(app, user, {
      order_type: 'TRANSFER_CARD_WHOLESALE',
      from_uuid: CUR.USDT_TRON,
      fiat_account_id: account.id,
      amount_from: '550',
    })
    const byThief = await place(app, { ...user, token: thief }, 'TRANSFER_CARD_WHOLESALE', {
      quote_id: q.quote_id,
    })
    expectProblem(byThief, 403, 'STEP_UP_REQUIRED')
    expect((await place(app, user, q.order_type, { quote_id: q.quote_id })).statusCode).toBe(201)
  })

  it('activating, unfreezing, the 3-D Secure code and closing each need the second look', async () => {
    const { owner, thief, account } = await ownerAndThief()
    const card = await virtualCard(owner, account.id)
    const attempts = [
      ['PATCH', `/issuing/cards/${card.id}/activate`, { cvv: '123' }],
      ['PATCH', `/issuing/cards/${card.id}/unfreeze`],
      ['GET', `/vcards/cards/${card.id}/sensitive/otp`],
      ['DELETE', `/issuing/cards/${card.id}`],
    ] as const
    for (const [method, url, body] of attempts) {
      expectProblem(await v1(thief, method, url, body), 403, 'STEP_UP_REQUIRED')
    }
    // Freezing protects the card: it never waits for a proof.
    ok(await v1(thief, 'PATCH', `/issuing/cards/${card.id}/freeze`))
    const still = ok<Card>(await v1(owner, 'GET', `/issuing/cards/${card.id}`))
    expect(still.status).toBe('FROZEN')

    ok(await v1(owner, 'PATCH', `/issuing/cards/${card.id}/unfreeze`))
    const code = ok<{ code: string }>(
      await v1(owner, 'GET', `/vcards/cards/${card.id}/sensitive/otp`),
    )
    expect(code.code).toMatch(/^\d+$/)
    expect(ok<Card>(await v1(owner, 'DELETE', `/issuing/cards/${card.id}`)).status).toBe('CLOSED')
  })

  it('raising a limit needs the second look; lowering one never does', async () => {
    const { owner, thief, account } = await ownerAndThief()
    const card = await virtualCard(owner, account.id)
    const limits = (per_transaction: string, daily: string, monthly: string) => ({
      per_transaction,
      daily,
      monthly,
    })
    const lower = limits('100.00', '200.00', '500.00')
    expect(
      ok<Card>(await v1(thief, 'PATCH', `/issuing/cards/${card.id}/limits`, lower)).limits,
    ).toEqual(lower)
    for (const raised of [
      limits('100.01', '200.00', '500.00'),
      limits('100.00', '200.00', '500.01'),
      limits('1000.00', '2500.00', '10000.00'),
    ]) {
      expectProblem(
        await v1(thief, 'PATCH', `/issuing/cards/${card.id}/limits`, raised),
        403,
        'STEP_UP_REQUIRED',
      )
    }
    // A body the route refuses is answered as such, before any proof is asked for.
    expectProblem(
      await v1(thief, 'PATCH', `/issuing/cards/${card.id}/limits`, limits('0', '1', '1')),
      422,
      'INVALID_LIMITS',
    )
    await stepUp(app, thief)
    const raised = limits('1000.00', '2500.00', '10000.00')
    expect(
      ok<Card>(await v1(thief, 'PATCH', `/issuing/cards/${card.id}/limits`, raised)).limits,
    ).toEqual(raised)
  })
})
