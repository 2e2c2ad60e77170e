import type { FastifyInstance } from 'fastify'
import { expect, vi } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import { toMinor } from '../../../contract/money.ts'
import type { Quote } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletAddress } from '../../../contract/wallets.ts'
import { bearer, createWallet, expectProblem, headers, signUp } from '../../test-support.ts'
import type { Owner } from '../owner.ts'
import { CURRENCY, calc } from './quote-test-support.ts'

export const TTL_SECONDS = 30

/** Outside addresses (valid, nobody's on the platform). */
export const ETH_ADDRESS = '0x9858effd232b4033e47d90003d41ec34ecaeda94'
export const ETH_ADDRESS_EIP55 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
export const TRON_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'
/** BIP 173's P2WPKH example, in the lower case it is stored in. */
export const BECH32_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
export const SEPA_IBAN = 'DE89370400440532013000'

/** Fixed prices for a test that checks exact numbers: USD per unit. */
export const FIXED_PRICES: Record<string, string> = {
  BTC: '97342.18',
  ETH: '3412.56',
  TRX: '0.2453',
  USDT: '1.00',
  USDC: '0.9999',
  EUR: '1.0834',
  USD: '1.00',
  GBP: '1.2719',
}

/** The quote's own promises, checked with arithmetic of the test's own. */
export function expectConsistent(quote: Quote) {
  const from = toMinor(quote.from.amount, quote.from.decimals)
  const [whole, fraction = ''] = quote.rate.split('.')
  const rateNum = BigInt(whole! + fraction)
  const rateDen = 10n ** BigInt(fraction.length)
  const expectedTo =
    (from * rateNum * 10n ** BigInt(quote.to.decimals)) /
    (rateDen * 10n ** BigInt(quote.from.decimals))
  expect(toMinor(quote.to.amount, quote.to.decimals)).toBe(expectedTo)
  for (const fee of quote.fees) {
    expect(fee.currency_uuid).toBe(quote.from.currency_uuid)
    expect(toMinor(fee.amount, quote.from.decimals)).toBeGreaterThan(0n)
  }
  const fees = quote.fees.reduce((sum, fee) => sum + toMinor(fee.amount, quote.from.decimals), 0n)
  expect(toMinor(quote.total, quote.from.decimals)).toBe(from + fees)
  expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(TTL_SECONDS * 1000)
}

export type Query = Parameters<typeof calc>[2]
/** The plainest quote request: a 10 EUR SEPA deposit into `wallet`. */
export const sepaDeposit = (wallet: string) => ({
  order_type: 'DEPOSIT_FIAT_SEPA' as const,
  wallet_uuid: wallet,
  from_uuid: CURRENCY.EUR,
  amount_from: '10',
})

/** A refused quote request: what it changes in the base query, its code, the field it names. */
export type Refusal = [changes: Partial<Query>, code: string, field?: string]
/** An amount out of bounds: what it changes, its code, the field, the bound, words of the message. */
export type Bound = [
  changes: Partial<Query>,
  code: string,
  field: string,
  limit: { amount: string; currency: string },
  says?: string,
]

/** A new user with a personal wallet. */
export async function person(app: FastifyInstance) {
  const pair = await signUp(app, { stepUp: true })
  const wallet = await createWallet(app, pair.access_token)
  return { pair, token: pair.access_token, wallet: wallet.uuid }
}

export async function newAddress(
  app: FastifyInstance,
  pair: TokenPair,
  wallet: string,
  chain: ChainId,
) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/wallets/${wallet}/addresses/${chain}`,
    headers: headers(bearer(pair.access_token)),
    payload: {},
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<WalletAddress>().address
}

export async function quoteOk(
  app: FastifyInstance,
  token: string,
  query: Parameters<typeof calc>[2],
) {
  const response = await calc(app, token, query)
  expect(response.statusCode, response.body).toBe(200)
  const quote = response.json<Quote>()
  expectConsistent(quote)
  return quote
}

/** The provider answers these prices (USD per unit) to the next call. */
export function fixPrices(app: FastifyInstance, prices: Record<string, string> = FIXED_PRICES) {
  return vi.spyOn(app.rates, 'quote').mockImplementationOnce(async (base, codes) => {
    expect(base).toBe('USD')
    return {
      rates: new Map(codes.flatMap((code) => (prices[code] ? [[code, prices[code]]] : []))),
      asOf: new Date('2026-01-01T12:00:00Z'),
    }
  })
}

export const problemField = (
  response: Awaited<ReturnType<typeof calc>>,
  status: number,
  code: string,
) => expectProblem(response, status, code).errors?.map((error) => error.field)

/**
 * Each row's query, `base` with the row's changes, is refused with the row's code:
 * 422 naming the one query field at fault, or 404 (missing, or not the caller's)
 * when the row names no field.
 */
export async function refuses(
  app: FastifyInstance,
  token: string,
  base: Partial<Query>,
  rows: Refusal[],
) {
  for (const [changes, code, field] of rows) {
    const response = await calc(app, token, { ...base, ...changes } as Query)
    if (field === undefined) expectProblem(response, 404, code)
    else expect(problemField(response, 422, code), code).toEqual([`/querystring/${field}`])
  }
}

/**
 * Each row's amount is out of bounds: 422 with the row's code, naming its field, with
 * the bound in the currency paid (`limit`) and, when given, words of the message.
 * `before` runs before each call (fixPrices, for bounds that move with the price).
 */
export async function outOfBounds(
  app: FastifyInstance,
  token: string,
  base: Partial<Query>,
  rows: Bound[],
  before = () => {},
) {
  for (const [changes, code, field, limit, says] of rows) {
    before()
    const response = await calc(app, token, { ...base, ...changes } as Query)
    const problem = expectProblem(response, 422, code)
    const message = says === undefined ? expect.any(String) : expect.stringContaining(says)
    expect(problem.errors, code).toEqual([{ field: `/querystring/${field}`, message }])
    expect(problem.limit, code).toEqual(limit)
  }
}

/** The tenant and user a token stands for, as the quote service takes them. */
export async function ownerOf(app: FastifyInstance, pair: TokenPair): Promise<Owner> {
  const claims = await app.tokens.verifyAccess(pair.access_token)
  return { tenantId: DEMO_TENANT_ID, userId: claims!.userId }
}
