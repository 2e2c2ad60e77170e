/**
 * Readers of the activity feed for the server tests: a page, the whole feed
 * page after page, one item; and the sandbox's outside parties the feed's
 * tests drive (the card network, the chain).
 */
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { ActivityDetail, ActivityItem, ActivityPage } from '../../../contract/activity.ts'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { bearer, headers } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'

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
