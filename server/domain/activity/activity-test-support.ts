/**
 * Readers of the activity feed for the server tests: a page, the whole feed
 * page after page, one item; the sandbox's outside parties the feed's tests
 * drive (the card network, the chain); and the app and the orders, transfers
 * and jobs the feed's own tests (activity-*.test.ts) share.
 */
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type {
  ActivityDetail,
  ActivityItem,
  ActivityPage,
  ActivityType,
} from '../../../contract/activity.ts'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import type { TransactionList, WalletTransaction } from '../../../contract/wallets.ts'
import { bearer, createTestApp, headers } from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import {
  CUR,
  fund,
  IBAN,
  insertDestination,
  type OrderUser,
  orderUser,
  quote,
  walletAddress,
} from '../orders/order-fixtures.ts'

export function activityCalls(app: () => FastifyInstance) {
  const get = (token: string, url: string, on = headers()) =>
    app().inject({ method: 'GET', url: `/api/v2${url}`, headers: { ...on, ...bearer(token) } })

  const feed = async (token: string, query: Record<string, string> = {}, on = headers()) =>
    ok<ActivityPage>(await get(token, `/activity?${new URLSearchParams(query)}`, on))

  /** Every item of a feed, newest first, page after page. */
  async function everything(token: string, query: Record<string, string> = {}) {
    const items: ActivityItem[] = []
    let cursor: string | null = null
    do {
      const page: ActivityPage = await feed(token, {
        ...query,
        limit: '100',
        ...(cursor && { cursor }),
      })
      items.push(...page.data)
      cursor = page.next_cursor
    } while (cursor)
    return items
  }

  const detail = async (token: string, id: string) =>
    ok<ActivityDetail>(await get(token, `/activity/${id}`))

  /** The sandbox card network's message about `cardId`, asserted 201. */
  const network = async (cardId: string, body: Record<string, unknown>) =>
    ok<CardTransaction>(
      await app().inject({
        method: 'POST',
        url: '/api/sandbox/card-transactions',
        headers: { 'content-type': 'application/json' },
        payload: { card_id: cardId, currency: 'EUR', ...body },
      }),
      201,
    )

  /** A sandbox chain deposit of `amount` USDT on Tron into the wallet (it needs a Tron address). */
  async function deposit(walletId: string, amount = '1', on: Record<string, string> = {}) {
    const response = await app().inject({
      method: 'POST',
      url: '/api/sandbox/deposits',
      headers: { 'content-type': 'application/json', ...on },
      payload: { wallet_uuid: walletId, chain: 'tron', currency: 'USDT', amount },
    })
    expect(response.statusCode, response.body).toBe(202)
    return response.json<WalletTransaction>()
  }

  return { get, feed, everything, detail, network, deposit }
}

/** How long the sandbox bank and chain take in the feed's tests: short, but jobs must wait. */
export const BANK_MS = 2_000
export const BLOCK_MS = 1_000

export const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }

/** The app the feed's tests drive: card keys, a quick sandbox bank and chain of 3 confirmations. */
export const feedTestApp = () =>
  createTestApp({
    ...testCardKeys().env,
    SANDBOX_BANK_MS: String(BANK_MS),
    SANDBOX_BLOCK_MS: String(BLOCK_MS),
    SANDBOX_MAX_CONFIRMATIONS: '3',
  })

/** The feed's readers with what its tests make happen: orders, transfers, cards, jobs. */
export function feedCalls(app: () => FastifyInstance) {
  const calls = activityCalls(app)
  const { fundedCard, call } = cardCalls(app)

  const only = async (user: OrderUser, type: ActivityType) => {
    const items = await calls.everything(user.token)
    expect(items.map((item) => item.type)).toEqual([type])
    return items[0]!
  }

  /** USDT on Tron into BTC, 100 paid unless `extra` says otherwise. */
  const exchangeQuote = (user: OrderUser, extra: Record<string, string> = {}) =>
    quote(app(), user, {
      order_type: 'EXCHANGE_CRYPTO_INTERNAL',
      from_uuid: CUR.USDT_TRON,
      to_uuid: CUR.BTC,
      amount_from: '100',
      ...extra,
    })

  /** A SEPA payout of `amount` euros to Anna Schmidt, a counterparty saved for it. */
  async function sepaQuote(user: OrderUser, amount: string) {
    const destination = await insertDestination(app().db, user.walletId, {
      type: 'SEPA',
      iban: IBAN.OK,
    })
    return quote(app(), user, {
      order_type: 'WITHDRAWAL_FIAT_SEPA',
      from_uuid: CUR.EUR,
      destination_id: destination,
      amount_from: amount,
    })
  }

  async function records(user: OrderUser, walletId = user.walletId) {
    const list = ok<TransactionList>(
      await calls.get(user.token, `/wallets/${walletId}/transactions?limit=100`),
    )
    return list.data
  }

  /** Runs the job queue at `now` and keeps running what it rescheduled up to `until`. */
  async function runJobs(from: Date, steps: number, stepMs: number) {
    for (let step = 0; step <= steps; step++) {
      await app().jobs.runDue({ now: new Date(from.getTime() + step * stepMs) })
    }
  }

  /** A quote for 50 USDT from a funded person's wallet into another person's, by its address. */
  async function transferBetweenPeople() {
    const sender = await orderUser(app())
    const receiver = await orderUser(app())
    await fund(app().db, sender.walletId, CUR.USDT_TRON, '80')
    const address = await walletAddress(app(), receiver, 'tron')
    const q = await quote(app(), sender, {
      order_type: 'WITHDRAWAL_CRYPTO',
      from_uuid: CUR.USDT_TRON,
      address,
      amount_from: '50',
    })
    return { sender, receiver, address, q }
  }

  return {
    ...calls,
    fundedCard,
    call,
    only,
    exchangeQuote,
    sepaQuote,
    records,
    runJobs,
    transferBetweenPeople,
  }
}
