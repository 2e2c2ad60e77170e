/**
 * Builders for the order tests: funded wallets, saved destinations and fiat
 * accounts straight in the database (their own areas own the APIs), firm
 * quotes through `GET /orders/calc`, and readers of what an order left
 * behind (balances, records, ledger entries).
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Kysely } from 'kysely'
import { expect } from 'vitest'
import type { ChainId } from '../../../contract/catalog.ts'
import { fromMinor, toMinor } from '../../../contract/money.ts'
import type { Order, OrderType, Quote, QuoteQuery } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletAddress } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { bearer, createWallet, headers, signUp } from '../../test-support.ts'
import { eip55, tronAddress } from '../addresses/address-codecs.ts'
import { credit } from '../ledger/ledger-test-support.ts'
import { balanceOf } from '../ledger/repository.ts'
import { systemAccount, walletAccounts } from '../ledger/service.ts'
import {
  insertDestination as insertDestinationRow,
  insertFiatAccount as insertFiatAccountRow,
} from './quote-test-support.ts'

/** Fixed catalogue uuids (migration 0004). */
export const CUR = {
  BTC: '68e31acb-683c-4237-a1d1-50edfa265bdf',
  ETH: '442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433',
  USDT_TRON: 'b3115d89-344b-4d51-abfa-76863eddec04',
  USDT_ETH: '2e56e676-1ddf-47f3-8f7f-3b736ad1e971',
  EUR: 'fc3b2351-726b-4cca-abda-4cfdcf917b0b',
  USD: '23a118db-510b-4942-ae1f-19d4bbe14324',
} as const

const DECIMALS: Record<string, number> = {
  [CUR.BTC]: 8,
  [CUR.ETH]: 18,
  [CUR.USDT_TRON]: 6,
  [CUR.USDT_ETH]: 6,
  [CUR.EUR]: 2,
  [CUR.USD]: 2,
}

/**
 * Valid German IBANs for the sandbox bank's rules: the last four characters
 * decide a payout's fate (providers/banking/sandbox.ts).
 */
export const IBAN = {
  /** Paid out after SANDBOX_BANK_MS. */
  OK: 'DE89370400440532013000',
  /** Comes back: ACCOUNT_CLOSED. */
  CLOSED: 'DE94370400440532010000',
  /** The bank never answers: the order, handed off, stays NEW and held while the job keeps asking. */
  UNREACHABLE: 'DE72370400440532019999',
} as const

/** The sandbox rails' pace for the order-flow tests: a bank that settles in 2 s, a block a second. */
export const BANK_MS = 2_000
export const BLOCK_MS = 1_000
export const RAIL_PACE = {
  SANDBOX_BANK_MS: String(BANK_MS),
  SANDBOX_BLOCK_MS: String(BLOCK_MS),
  SANDBOX_MAX_CONFIRMATIONS: '3',
}

/** `ms` after `base`: the clock a job runner is handed. */
export const at = (base: Date, ms: number) => new Date(base.getTime() + ms)

/** The demo tenant's system account of this kind (where fees, payouts and exchanges land). */
export const system = (app: FastifyInstance, kind: 'external' | 'fees' | 'treasury') =>
  systemAccount(app.db, DEMO_TENANT_ID, kind)

/** A person with a personal wallet, and their raw v1 token. */
export async function orderUser(app: FastifyInstance) {
  const pair = await signUp(app, { stepUp: true })
  const wallet = await createWallet(app, pair.access_token)
  return { token: pair.access_token, walletId: wallet.uuid }
}
export type OrderUser = Awaited<ReturnType<typeof orderUser>>

/** Money arriving in the wallet from outside, straight through the ledger (its test credit). */
export async function fund(
  db: Kysely<DB>,
  walletId: string,
  currency: string,
  amount: string,
  tenantId = DEMO_TENANT_ID,
) {
  const accounts = await walletAccounts(db, tenantId, walletId)
  await credit(db, tenantId, accounts!.user_wallet, currency, toMinor(amount, DECIMALS[currency]!))
}

/** `GET /api/v1/orders/calc`: a firm quote, asserted 200. */
export async function quote(
  app: FastifyInstance,
  user: OrderUser,
  query: Partial<Record<keyof QuoteQuery, string>>,
): Promise<Quote> {
  const search = new URLSearchParams({ wallet_uuid: user.walletId })
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, value)
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/orders/calc?${search}`,
    headers: headers({ authorization: user.token }),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<Quote>()
}

/** `POST /api/v1/orders/{order_type}`, answered as it comes. */
export function place(
  app: FastifyInstance,
  user: OrderUser,
  orderType: OrderType,
  body: { quote_id: string; request_id?: string; note?: string },
  extra: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/orders/${orderType}`,
    headers: headers({ authorization: user.token, ...extra }),
    payload: body,
  })
}

/** Places the quote and expects 201. */
export async function placed(app: FastifyInstance, user: OrderUser, q: Quote): Promise<Order> {
  const response = await place(app, user, q.order_type, { quote_id: q.quote_id })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Order>()
}

/** Quotes `query` and places the quote: an order as a person gets one in two calls. */
export async function quotedAndPlaced(
  app: FastifyInstance,
  user: OrderUser,
  query: Partial<Record<keyof QuoteQuery, string>>,
): Promise<Order> {
  return placed(app, user, await quote(app, user, query))
}

export function v1(
  app: FastifyInstance,
  user: OrderUser,
  method: 'GET' | 'POST',
  url: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/api/v1${url}`,
    headers: headers({ authorization: user.token }),
  })
}

export async function getOrder(app: FastifyInstance, user: OrderUser, id: string): Promise<Order> {
  const response = await v1(app, user, 'GET', `/orders/${id}`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<Order>()
}

/** `POST /api/sandbox/bank-transfers`. */
export function bankTransfer(
  app: FastifyInstance,
  body: {
    reference: string
    amount: string
    currency: string
    sender_name?: string
    sender_iban?: string
  },
) {
  return app.inject({
    method: 'POST',
    url: '/api/sandbox/bank-transfers',
    headers: { 'content-type': 'application/json' },
    payload: body,
  })
}

/** A counterparty of the wallet with one destination (a SEPA one with its BIC), straight in the database. */
export async function insertDestination(
  db: Kysely<DB>,
  walletId: string,
  destination: Parameters<typeof insertDestinationRow>[3],
  tenantId = DEMO_TENANT_ID,
) {
  const bic = destination.iban ? 'COBADEFFXXX' : undefined
  const row = await insertDestinationRow(db, tenantId, walletId, { bic, ...destination })
  return row.destinationId
}

/** A fiat account of the wallet under a program of its own, with its ledger sub-account. */
export async function insertFiatAccount(
  db: Kysely<DB>,
  walletId: string,
  options: Parameters<typeof insertFiatAccountRow>[3] = {},
  tenantId = DEMO_TENANT_ID,
) {
  const id = await insertFiatAccountRow(db, tenantId, walletId, options)
  const { ledger_account_id } = await db
    .selectFrom('fiat_accounts')
    .select('ledger_account_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { id, ledgerAccountId: ledger_account_id }
}

/** A valid address on `chain` that no wallet of the platform holds. */
export function externalAddress(chain: 'tron' | 'ethereum'): string {
  const accountId = randomBytes(20)
  return chain === 'tron' ? tronAddress(accountId) : eip55(accountId)
}

/** A deposit address of the user's wallet on `chain`. */
export async function walletAddress(app: FastifyInstance, user: OrderUser, chain: ChainId) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/wallets/${user.walletId}/addresses/${chain}`,
    headers: headers(bearer(user.token)),
    payload: {},
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<WalletAddress>().address
}

/** Available and held (the `held` account alone) balances of a wallet in one currency, as decimals. */
export async function balances(db: Kysely<DB>, walletId: string, currency: string) {
  const rows = await db
    .selectFrom('account_balances as b')
    .innerJoin('ledger_accounts as a', 'a.id', 'b.account_id')
    .select(['a.kind', 'b.balance_minor'])
    .where('a.wallet_id', '=', walletId)
    .where('b.currency_uuid', '=', currency)
    .execute()
  const of = (kind: string) =>
    fromMinor(
      rows
        .filter((row) => row.kind === kind)
        .reduce((sum, row) => sum + BigInt(row.balance_minor), 0n),
      DECIMALS[currency]!,
    )
  return { available: of('user_wallet'), held: of('held') }
}

/** The balance of one ledger account (a sub-account, a system account) in a currency, as a decimal. */
export async function accountBalance(db: Kysely<DB>, accountId: string, currency: string) {
  return fromMinor(await balanceOf(db, accountId, currency), DECIMALS[currency]!)
}

/** The records an order wrote, as (wallet, type, record_type, status, amount) lines. */
export async function recordsOf(db: Kysely<DB>, orderId: string) {
  const rows = await db
    .selectFrom('wallet_transactions as t')
    .innerJoin('currencies as c', 'c.uuid', 't.currency_uuid')
    .select([
      't.wallet_id',
      't.type',
      't.method',
      't.record_type',
      't.status',
      't.amount_minor',
      't.tx_hash',
      't.confirmations',
      't.address',
      'c.decimals',
      'c.code',
    ])
    .where('t.operation_id', '=', orderId)
    .orderBy('t.record_type')
    .orderBy('t.type')
    .execute()
  return rows.map((row) => ({
    wallet: row.wallet_id,
    type: row.type,
    method: row.method,
    record_type: row.record_type,
    status: row.status,
    amount: `${fromMinor(BigInt(row.amount_minor), row.decimals)} ${row.code}`,
    tx_hash: row.tx_hash,
    confirmations: row.confirmations,
    address: row.address,
  }))
}

/** The idempotency keys of the order's ledger entries, sorted. */
export async function entriesOf(db: Kysely<DB>, orderId: string) {
  const rows = await db
    .selectFrom('journal_entries')
    .select('idempotency_key')
    .where('idempotency_key', 'like', `order:${orderId}:%`)
    .orderBy('idempotency_key')
    .execute()
  return rows.map((row) => row.idempotency_key.slice(`order:${orderId}:`.length))
}

/** The order's statuses, oldest first. */
export const statuses = (order: Order) => order.timeline.map((event) => event.status)

/** What its timeline says, as the codes the app words, oldest first. */
export const eventCodes = (order: Order) => order.timeline.map((event) => event.code)

/** `a − b` of two decimals with the same places (balance arithmetic in the tests, no floats). */
export function minus(a: string, b: string, decimals: number): string {
  return fromMinor(toMinor(a, decimals) - toMinor(b, decimals), decimals)
}

/** `a + b` of two decimals with the same places. */
export function plus(a: string, b: string, decimals: number): string {
  return fromMinor(toMinor(a, decimals) + toMinor(b, decimals), decimals)
}

/** Sum of a quote's fee lines of these kinds, as a decimal. */
export function feeSum(q: Pick<Quote, 'fees' | 'from'>, kinds?: string[]): string {
  const lines = q.fees.filter((fee) => !kinds || kinds.includes(fee.kind))
  return fromMinor(
    lines.reduce((sum, fee) => sum + toMinor(fee.amount, q.from.decimals), 0n),
    q.from.decimals,
  )
}

/** `POST /api/v1/orders/{id}/cancel` as this person. */
export const cancel = (app: FastifyInstance, user: OrderUser, id: string) =>
  v1(app, user, 'POST', `/orders/${id}/cancel`)

/** How many orders the wallet has, as the database counts them (a refusal leaves none). */
export async function orderCount(app: FastifyInstance, walletId: string) {
  const row = await app.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirstOrThrow()
  return row.n
}

/** A new person's SEPA payout to this IBAN (its last four digits pick the bank's answer), placed. */
export async function sepaWithdrawal(app: FastifyInstance, iban: string, amount = '100.00') {
  const user = await orderUser(app)
  await fund(app.db, user.walletId, CUR.EUR, '300.00')
  const destination = await insertDestination(app.db, user.walletId, { type: 'SEPA', iban })
  const q = await quote(app, user, {
    order_type: 'WITHDRAWAL_FIAT_SEPA',
    from_uuid: CUR.EUR,
    destination_id: destination,
    amount_from: amount,
  })
  return { user, q, order: await placed(app, user, q) }
}

/** A firm quote for exchanging this much USDT on Tron into euros. */
export function exchangeQuote(
  app: FastifyInstance,
  user: OrderUser,
  amount = '50',
): Promise<Quote> {
  return quote(app, user, {
    order_type: 'EXCHANGE_CRYPTO_INTERNAL',
    from_uuid: CUR.USDT_TRON,
    to_uuid: CUR.EUR,
    amount_from: amount,
  })
}
