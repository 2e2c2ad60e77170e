/**
 * Builders for the tests of payments between people: a named person with
 * their starter wallet (where money for them lands), calls as them, and
 * their available balance and events.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { expect } from 'vitest'
import type { WalletList } from '../../../contract/wallets.ts'
import { bearer, headers, signUp, uniqueEmail } from '../../test-support.ts'
import { balances, CUR } from '../orders/order-fixtures.ts'

export interface Person {
  token: string
  walletId: string
  email: string
  userId: string
}

/** Calls the v2 API as `user`. */
export function as(
  app: FastifyInstance,
  user: { token: string },
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return app.inject({
    method,
    url: `/api/v2${url}`,
    headers: headers(bearer(user.token)),
    ...(payload ? { payload } : {}),
  })
}

/**
 * A verified person named `first last`, who lets people find them unless
 * `discoverable` is false; `stepUp` gives their session a fresh second look.
 */
export async function person(
  app: FastifyInstance,
  first: string,
  last: string,
  options: { discoverable?: boolean; stepUp?: boolean } = {},
): Promise<Person> {
  const email = uniqueEmail(first.toLowerCase())
  const pair = await signUp(app, { email, stepUp: options.stepUp ?? false })
  const token = pair.access_token
  const patch = await as(app, { token }, 'PATCH', '/user/user-data', {
    first_name: first,
    last_name: last,
    people_discoverable: options.discoverable ?? true,
  })
  expect(patch.statusCode, patch.body).toBe(200)
  const wallets = (await as(app, { token }, 'GET', '/wallets')).json<WalletList>()
  const user = (await as(app, { token }, 'GET', '/user')).json<{ id: string }>()
  return { token, email, walletId: wallets.data[0]!.uuid, userId: user.id }
}

/** The wallet's available euros ("0.00" when it never had any). */
export const euros = async (app: FastifyInstance, user: { walletId: string }) =>
  (await balances(app.db, user.walletId, CUR.EUR)).available

/** The person's events of these kinds (a LIKE pattern), oldest first. */
export const eventsOf = (app: FastifyInstance, userId: string, kinds: string) =>
  app.db
    .selectFrom('events')
    .select(['kind', 'payload'])
    .where('user_id', '=', userId)
    .where(sql<string>`kind`, 'like', kinds)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
