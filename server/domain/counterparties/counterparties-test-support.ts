import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Counterparty, Destination } from '../../../contract/counterparties.ts'
import { bearer, createTestApp, createWallet, headers, signUp } from '../../test-support.ts'

export const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
export const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
export const SOLANA = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
export const NO_SUCH_ID = '0190f5a4-0000-7000-8000-000000000000'

export const anna = { type: 'INDIVIDUAL', first_name: 'Anna', last_name: 'Schmidt', country: 'DE' }
export const acme = { type: 'BUSINESS', legal_name: 'Acme GmbH', country: 'DE' }

/**
 * The counterparty tests' app, built once per file (beforeAll), and the calls they share: a
 * person with a wallet, a counterparty in it, its destinations.
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export function counterpartiesApp() {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const call = (
    pair: TokenPair,
    method: Method,
    url: string,
    payload?: object,
    extraHeaders: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url: `/api/v2/counterparties${url}`,
      headers: headers({ ...bearer(pair.access_token), ...extraHeaders }),
      ...(payload && { payload }),
    })

  /** A new user with one wallet. */
  async function owner() {
    const pair = await signUp(app, { stepUp: true })
    const wallet = await createWallet(app, pair.access_token)
    return { pair, wallet: wallet.uuid }
  }

  async function createCounterparty(pair: TokenPair, wallet: string, body: object = anna) {
    const response = await call(pair, 'POST', `/${wallet}`, body)
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Counterparty>()
  }

  async function createDestination(pair: TokenPair, path: string, body: object) {
    const response = await call(pair, 'POST', `${path}/destinations`, body)
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Destination>()
  }

  /** A user, a wallet and a counterparty in it; `path` is the counterparty's URL under the base. */
  async function book(body: object = anna) {
    const { pair, wallet } = await owner()
    const counterparty = await createCounterparty(pair, wallet, body)
    return {
      pair,
      wallet,
      counterparty,
      path: `/${wallet}/${counterparty.counterparty_account_id}`,
    }
  }

  const errorFields = (problem: { errors?: { field: string }[] }) =>
    (problem.errors ?? []).map((error) => error.field)

  async function userIdOf(wallet: string) {
    const row = await app.db
      .selectFrom('wallets')
      .select('user_id')
      .where('id', '=', wallet)
      .executeTakeFirstOrThrow()
    return row.user_id
  }

  return {
    app: () => app,
    call,
    owner,
    createCounterparty,
    createDestination,
    book,
    errorFields,
    userIdOf,
  }
}
