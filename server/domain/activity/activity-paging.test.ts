import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import {
  bearer,
  createTenant,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'
import { CUR, fund, orderUser, placed, walletAddress } from '../orders/order-fixtures.ts'
import { feedCalls, feedTestApp, SHOP } from './activity-test-support.ts'

describeServer('the activity feed: its pages, its filters and whose items it shows', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await feedTestApp()
  })
  afterAll(() => app?.close())

  const { get, feed, everything, network, deposit, fundedCard, exchangeQuote, sepaQuote } =
    feedCalls(() => app)

  describe('paging', () => {
    /** A new person with `count` crypto deposits, oldest first. */
    async function depositor(count: number) {
      const user = await orderUser(app)
      await walletAddress(app, user, 'tron')
      const more = () => deposit(user.walletId)
      for (let n = 0; n < count; n++) await more()
      return { user, deposit: more }
    }

    it('walks the feed by cursor: newest first, while new items arrive none repeats or is skipped', async () => {
      const { user, deposit } = await depositor(11)
      const before = (await everything(user.token)).map((item) => item.id)
      expect(before).toHaveLength(11)

      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: ActivityPage = await feed(user.token, {
          limit: '3',
          ...(cursor && { cursor }),
        })
        expect(page.limit).toBe(3)
        expect(page.data.length).toBeLessThanOrEqual(3)
        seen.push(...page.data.map((item) => item.id))
        cursor = page.next_cursor
        pages++
        // Two new items between every two pages: they are newer than the first page.
        await deposit()
        await deposit()
      } while (cursor)
      expect(pages).toBe(4)
      expect(seen).toEqual(before)

      // Read from the top again, the new ones lead.
      const after = await everything(user.token)
      expect(after).toHaveLength(11 + 8)
      expect(after.slice(8).map((item) => item.id)).toEqual(before)
      const times = after.map((item) => item.created_at)
      expect([...times].sort().reverse()).toEqual(times)
    })

    it('items of one instant are ordered by id and never split or repeated across pages', async () => {
      const { user } = await depositor(7)
      const ids = (await everything(user.token)).map((item) => item.id)
      // All seven at one microsecond: only the id orders them now.
      await app.db
        .updateTable('activities')
        .set({ created_at: new Date('2025-03-01T12:00:00.000Z') })
        .where('id', 'in', ids)
        .execute()
      for (const size of [1, 2, 3, 6, 7]) {
        const seen: string[] = []
        let cursor: string | null = null
        do {
          const page: ActivityPage = await feed(user.token, {
            limit: String(size),
            ...(cursor && { cursor }),
          })
          seen.push(...page.data.map((item) => item.id))
          cursor = page.next_cursor
        } while (cursor)
        expect(seen, `page size ${size}`).toEqual([...ids].sort().reverse())
      }
    })

    it('a cursor that the API did not make is 422 on the cursor; limit is bounded', async () => {
      const user = await orderUser(app)
      for (const cursor of ['nope!', Buffer.from('2025|x').toString('base64url'), 'AAAA']) {
        const problem = expectProblem(
          await get(user.token, `/activity?cursor=${cursor}`),
          422,
          'VALIDATION_FAILED',
        )
        expect(problem.errors?.[0]?.field).toBe('/querystring/cursor')
      }
      expectProblem(await get(user.token, '/activity?limit=101'), 422, 'VALIDATION_FAILED')
      expect(await feed(user.token)).toEqual({ data: [], limit: 20, next_cursor: null })
    })

    it('the last page says so: next_cursor null when nothing follows', async () => {
      const { user } = await depositor(4)
      const page = await feed(user.token, { limit: '4' })
      expect(page.data).toHaveLength(4)
      expect(page.next_cursor).toBeNull()
      const first = await feed(user.token, { limit: '3' })
      expect(first.next_cursor).not.toBeNull()
    })
  })

  describe('filters', () => {
    it('narrows by type, by currency code in any case (paid or received) and by words', async () => {
      const user = await orderUser(app)
      await fund(app.db, user.walletId, CUR.USDT_TRON, '500')
      await fund(app.db, user.walletId, CUR.EUR, '500.00')
      await placed(app, user, await exchangeQuote(user))
      await placed(app, user, await sepaQuote(user, '10.00'))

      const types = async (query: Record<string, string>) =>
        (await everything(user.token, query)).map((item) => item.type)
      expect(await types({})).toEqual(['send', 'exchange'])
      expect(await types({ type: 'exchange' })).toEqual(['exchange'])
      expect(await types({ currency: 'btc' })).toEqual(['exchange'])
      expect(await types({ currency: 'USDT' })).toEqual(['exchange'])
      expect(await types({ currency: 'eur' })).toEqual(['send'])
      expect(await types({ currency: 'GBP' })).toEqual([])
      expect(await types({ q: 'schmidt' })).toEqual(['send'])
      expect(await types({ q: 'ANNA' })).toEqual(['send'])
      expect(await types({ q: 'btc' })).toEqual(['exchange'])
      // A typed % or _ matches only itself.
      expect(await types({ q: '%' })).toEqual([])
      expect(await types({ q: '_' })).toEqual([])
      expectProblem(await get(user.token, '/activity?type=purchase'), 422, 'VALIDATION_FAILED')
    })
  })

  describe('whose items', () => {
    it('another person’s items never appear, and their wallet, card or item is 404', async () => {
      const owner = await fundedCard(10_000n)
      const ownerUser = { token: owner.token, walletId: owner.wallet.uuid }
      await fund(app.db, ownerUser.walletId, CUR.USDT_TRON, '50')
      await network(owner.card.id, { type: 'AUTHORIZATION', amount: '5.00', merchant: SHOP })
      const mine = await everything(owner.token)
      expect(mine.length).toBeGreaterThan(0)

      const stranger = await orderUser(app)
      const theirs = await everything(stranger.token)
      const ids = new Set(mine.map((item) => item.id))
      expect(theirs.filter((item) => ids.has(item.id))).toEqual([])
      expectProblem(
        await get(stranger.token, `/activity?wallet_uuid=${owner.wallet.uuid}`),
        404,
        'WALLET_NOT_FOUND',
      )
      expectProblem(
        await get(stranger.token, `/activity?card_id=${owner.card.id}`),
        404,
        'CARD_NOT_FOUND',
      )
      expectProblem(
        await get(stranger.token, `/activity?fiat_account_id=${owner.card.fiat_account.id}`),
        404,
        'FIAT_ACCOUNT_NOT_FOUND',
      )
      for (const item of mine) {
        expectProblem(await get(stranger.token, `/activity/${item.id}`), 404, 'ACTIVITY_NOT_FOUND')
      }
    })

    it('another tenant’s people never see this tenant’s items, nor it theirs', async () => {
      const tenant = await createTenant(app)
      const on = headers({ 'x-tenant-id': tenant })
      const pair = await signUp(app, { headers: on })
      const wallet = ok<{ uuid: string }>(
        await app.inject({
          method: 'POST',
          url: '/api/v2/wallets',
          headers: { ...on, ...bearer(pair.access_token) },
          payload: { type: 'personal' },
        }),
        201,
      )
      await app.inject({
        method: 'POST',
        url: `/api/v2/wallets/${wallet.uuid}/addresses/tron`,
        headers: { ...on, ...bearer(pair.access_token) },
        payload: {},
      })
      await deposit(wallet.uuid, '3', { 'x-tenant-id': tenant })
      const theirs = (await feed(pair.access_token, {}, on)).data
      expect(theirs.map((item) => item.type)).toEqual(['deposit'])

      const here = await orderUser(app)
      const ours = await everything(here.token)
      expect(ours.some((item) => item.id === theirs[0]!.id)).toBe(false)
      expectProblem(await get(here.token, `/activity/${theirs[0]!.id}`), 404, 'ACTIVITY_NOT_FOUND')
      // Their token under this tenant's header is no session here.
      expect((await get(pair.access_token, '/activity')).statusCode).toBe(401)
      // And the item really is theirs: the database holds it under their tenant.
      const row = await app.db
        .selectFrom('activities')
        .select('tenant_id')
        .where('id', '=', theirs[0]!.id)
        .executeTakeFirstOrThrow()
      expect(row.tenant_id).toBe(tenant)
    })
  })
})
