import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { AmountError, fromMinor, toMinor } from '../../../contract/money.ts'
import type {
  ExchangeDirectionList,
  ExchangeQuery,
  FeeLine,
  MoneySide,
  OrderTarget,
  OrderType,
  Quote,
  QuoteQuery,
} from '../../../contract/orders.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import type { DB, StoredFee, StoredPayee } from '../../infra/db/schema.ts'
import { readOnce } from '../../infra/read-once.ts'
import type { NetworkFeeEstimator } from '../../providers/chain/fees.ts'
import { type RatesProvider, RatesUnavailableError } from '../../providers/rates/rates.ts'
import { validateAddress } from '../addresses/validate.ts'
import { maskDestination } from '../counterparties/rules.ts'
import { findDestinationForWallet } from '../counterparties/service.ts'
import type { Owner } from '../owner.ts'
import { wholePage } from '../page.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { QuoteError, type QuoteField, quoteRejected } from './errors.ts'
import {
  type AmountField,
  AmountLimitError,
  amountLimits,
  BANK_RAIL_CURRENCIES,
  CARD_SUB_ACCOUNT_TYPES,
  exchangeDirections,
  exchangeRate,
  feeRule,
  isExchangeable,
  isWholesaleSource,
  networkFeeMinor,
  PAR,
  priceQuote,
  spreadPercent,
} from './pricing.ts'
import * as repo from './quote-repository.ts'
import { payeeOf } from './rules.ts'

/** A currency as a quote shows it. */
export type QuoteCurrency = Pick<repo.CurrencyRow, 'uuid' | 'code' | 'chain' | 'decimals'>

export function moneySide(currency: QuoteCurrency, minor: bigint | string): MoneySide {
  return {
    currency_uuid: currency.uuid,
    currency: currency.code,
    chain: currency.chain,
    decimals: currency.decimals,
    amount: fromMinor(BigInt(minor), currency.decimals),
  }
}

/** Stored fee lines (quote or order) as the contract's, in the from currency. */
export function feeLines(fees: readonly StoredFee[], from: QuoteCurrency): FeeLine[] {
  return fees.map((fee) => ({
    kind: fee.kind,
    currency_uuid: from.uuid,
    currency: from.code,
    amount: fromMinor(BigInt(fee.amount_minor), from.decimals),
    percent: fee.percent,
  }))
}

/** A stored quote as the contract's Quote; `currencies` holds at least its two currencies. */
export function toQuote(row: repo.QuoteRow, currencies: ReadonlyMap<string, QuoteCurrency>): Quote {
  const from = currencies.get(row.from_currency_uuid)
  const to = currencies.get(row.to_currency_uuid)
  if (!from || !to) throw new Error(`quote ${row.id}: its currencies were not given`)
  return {
    quote_id: row.id,
    order_type: row.order_type,
    wallet_uuid: row.wallet_id,
    from: moneySide(from, row.amount_from_minor),
    to: moneySide(to, row.amount_to_minor),
    rate: row.rate,
    fees: feeLines(row.fees, from),
    total: fromMinor(BigInt(row.total_minor), from.decimals),
    target: row.target,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  }
}

/** Where the money goes, resolved and checked, and what that means for the price. */
interface Resolved {
  to: repo.CurrencyRow
  target: OrderTarget
  /** What the rail will be told, fixed now (schema.ts StoredPayee); null when no one is paid. */
  payee: StoredPayee | null
  /** A withdrawal to an outside address: the chain's fee is charged. */
  networkFee: boolean
  /** Card top-ups: the program's top-up percentage. */
  programPercent?: string
}

/** The query parameters naming a target; each order type takes some of them (contract table). */
const TARGET_FIELDS = ['destination_id', 'address', 'to_wallet_uuid', 'fiat_account_id'] as const
const TAKES: Record<OrderType, readonly (typeof TARGET_FIELDS)[number][]> = {
  DEPOSIT_FIAT_SEPA: [],
  DEPOSIT_FIAT_SWIFT: [],
  WITHDRAWAL_FIAT_SEPA: ['destination_id'],
  WITHDRAWAL_CRYPTO: ['destination_id', 'address'],
  EXCHANGE_CRYPTO_INTERNAL: ['to_wallet_uuid'],
  TRANSFER_CARD_PREPAID: ['fiat_account_id'],
  TRANSFER_CARD_SUBACCOUNT: ['fiat_account_id'],
  TRANSFER_CARD_WHOLESALE: ['fiat_account_id'],
}

const emptyTarget = {
  wallet_uuid: null,
  counterparty_account_id: null,
  counterparty_destination_id: null,
  destination_type: null,
  fiat_account_id: null,
  chain: null,
  address: null,
} satisfies Omit<OrderTarget, 'kind' | 'display'>

/** As the schema's own 422 words it: the detail names the field, errors[] says what is wrong. */
const invalid = (field: QuoteField, reason: string) =>
  quoteRejected('VALIDATION_FAILED', field, `/querystring/${field} ${reason}`, { reason })

/**
 * How long a quote no order placed is kept after it expired. Placing refuses
 * it from expires_at on (the TTL is at most 600 s), so this is not about
 * money: for a day a client retrying a stale quote still hears QUOTE_EXPIRED
 * with the expiry rather than QUOTE_NOT_FOUND, and support can still look up
 * the quote someone asks about. Past it, the row is only weight: the app
 * re-quotes every few seconds while a form is open.
 */
export const QUOTE_RETENTION_MS = 24 * 60 * 60 * 1000

/**
 * At most this many stale quotes are deleted per round of the prune job (one
 * short transaction each); a full batch asks for the next round at once.
 */
export const QUOTE_PRUNE_BATCH = 1000

/** The job that prunes stale quotes, and how often it runs. */
export const QUOTE_PRUNE_JOB = 'orders.prune_quotes'
export const QUOTE_PRUNE_EVERY_MS = 10 * 60_000

/**
 * One round of the prune: at most QUOTE_PRUNE_BATCH quotes no order placed
 * that expired over QUOTE_RETENTION_MS before `now`. Answers how many went.
 */
export function pruneStaleQuotes(db: Kysely<DB>, now: Date): Promise<number> {
  return db
    .transaction()
    .execute((trx) =>
      repo.pruneQuotes(trx, new Date(now.getTime() - QUOTE_RETENTION_MS), QUOTE_PRUNE_BATCH),
    )
}

export interface QuoteOptions {
  /** QUOTE_TTL_SECONDS: how long a quote can be placed. */
  ttlSeconds: number
  now?: () => Date
}

/**
 * Firm quotes (`GET /orders/calc`) and the indicative directions list
 * (`GET /exchange/`). A quote checks who may pay whom and how much, prices it
 * with one call to the rates provider (none when nothing needs a price), and
 * stores it for the order that places it. It does not look at the balance:
 * placing the order does, when it holds the funds.
 */
export class QuoteService {
  /** The catalogue by uuid: fixed by the migrations, read once. */
  readonly #catalogue = readOnce(
    async () => new Map((await repo.findCatalogue(this.db)).map((row) => [row.uuid, row])),
  )

  constructor(
    private readonly db: Kysely<DB>,
    private readonly rates: RatesProvider,
    private readonly networkFees: NetworkFeeEstimator,
    private readonly options: QuoteOptions,
  ) {}

  /**
   * Prices the quote and stores it: one statement. (Stale quotes are pruned
   * by their own job, QUOTE_PRUNE_JOB, never on this path.)
   * @throws QuoteError (422 naming a field; 404 for a destination or account),
   *   WALLET_NOT_FOUND (WalletError), RatesUnavailableError (502)
   */
  async create(
    owner: Owner,
    query: QuoteQuery,
    now = this.options.now?.() ?? new Date(),
  ): Promise<Quote> {
    const amountField = givenAmount(query)
    const wallet = await findWallet(this.db, owner, query.wallet_uuid)
    if (!wallet) throw walletNotFound()
    const from = await this.#currency(query.from_uuid, 'from_uuid')
    for (const field of TARGET_FIELDS) {
      if (query[field] !== undefined && !TAKES[query.order_type].includes(field)) {
        throw invalid(field, `is not used by ${query.order_type}`)
      }
    }
    const resolved = await this.#resolve(owner, query, from, wallet.type)
    const { to } = resolved
    if (query.to_uuid !== undefined && query.to_uuid !== to.uuid) {
      throw invalid('to_uuid', `must be ${currencyName(to)} for ${query.order_type}, or left out`)
    }
    const amountMinor = parseAmount(
      query[amountField]!,
      amountField === 'amount_from' ? from : to,
      amountField,
    )

    const fee = resolved.networkFee
      ? await this.networkFees.estimate(from.chain!, from.type === 'native' ? 'native' : 'token')
      : undefined
    const payInNative = fee !== undefined && fee.currency !== from.code
    const codes = new Set<string>()
    if (from.uuid !== to.uuid) codes.add(from.code).add(to.code)
    if (from.type !== 'fiat') codes.add(from.code)
    if (payInNative) codes.add(from.code).add(fee.currency)
    const prices = codes.size > 0 ? await this.#prices([...codes]) : new Map<string, string>()
    const price = (code: string) => prices.get(code)!

    const rate =
      from.uuid === to.uuid
        ? PAR
        : exchangeRate(price(from.code), price(to.code), spreadPercent(from, to))
    const limits = from.type === 'fiat' ? amountLimits(from) : amountLimits(from, price(from.code))
    const networkMinor = fee
      ? networkFeeMinor(
          fee.amount,
          payInNative ? { native: price(fee.currency), currency: price(from.code) } : null,
          from.decimals,
        )
      : 0n

    let priced: ReturnType<typeof priceQuote>
    try {
      priced = priceQuote({
        decimals: { from: from.decimals, to: to.decimals },
        rate,
        amount: { field: amountField, minor: amountMinor },
        limits,
        fee: feeRule(query.order_type, resolved.programPercent),
        networkFeeMinor: networkMinor,
      })
    } catch (error) {
      if (!(error instanceof AmountLimitError)) throw error
      const { kind, field, limitMinor } = error.failure
      // The bound is on from.amount, even when the caller gave amount_to.
      const bound = fromMinor(limitMinor, from.decimals)
      const which = kind === 'AMOUNT_TOO_SMALL' ? 'at least' : 'at most'
      throw quoteRejected(
        kind,
        field,
        `The amount paid must be ${which} ${bound} ${from.code} for ${query.order_type}.`,
        { limit: { amount: bound, currency: from.code } },
      )
    }

    const row = await repo.insertQuote(this.db, {
      id: uuidv7(),
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      wallet_id: wallet.id,
      order_type: query.order_type,
      from_currency_uuid: from.uuid,
      to_currency_uuid: to.uuid,
      amount_from_minor: priced.fromMinor.toString(),
      amount_to_minor: priced.toMinor.toString(),
      rate,
      fees: priced.fees.map((line) => ({
        kind: line.kind,
        amount_minor: line.amountMinor.toString(),
        percent: line.percent,
      })),
      total_minor: priced.totalMinor.toString(),
      target: resolved.target,
      payee: resolved.payee,
      expires_at: new Date(now.getTime() + this.options.ttlSeconds * 1000),
      created_at: now,
    })
    return toQuote(row, new Map([from, to].map((currency) => [currency.uuid, currency])))
  }

  /**
   * Every direction the platform offers the tenant, narrowed by the filters.
   * @throws RatesUnavailableError (502)
   */
  async directions(tenantId: string, query: ExchangeQuery): Promise<ExchangeDirectionList> {
    const [catalogue, programs] = await Promise.all([
      this.#catalogue(),
      repo.findActivePrograms(this.db, tenantId),
    ])
    const currencies = [...catalogue.values()]
    const quote = await this.rates.quote('USD', [...new Set(currencies.map((c) => c.code))])
    const networkFees = new Map<string, bigint>()
    for (const currency of currencies) {
      if (currency.type === 'fiat') continue
      const fee = await this.networkFees.estimate(currency.chain!, currency.type)
      const native = quote.rates.get(fee.currency)
      const own = quote.rates.get(currency.code)
      if (fee.currency === currency.code) {
        networkFees.set(currency.uuid, networkFeeMinor(fee.amount, null, currency.decimals))
      } else if (native !== undefined && own !== undefined) {
        networkFees.set(
          currency.uuid,
          networkFeeMinor(fee.amount, { native, currency: own }, currency.decimals),
        )
      }
    }
    const data = exchangeDirections({
      currencies,
      prices: quote.rates,
      programs,
      networkFees,
      asOf: quote.asOf,
    }).filter(
      (direction) =>
        (query.from_uuid === undefined || direction.from.currency_uuid === query.from_uuid) &&
        (query.to_uuid === undefined || direction.to.currency_uuid === query.to_uuid) &&
        (query.order_type === undefined || direction.order_type === query.order_type),
    )
    return wholePage(data)
  }

  async #currency(uuid: string, field: QuoteField): Promise<repo.CurrencyRow> {
    const currency = (await this.#catalogue()).get(uuid.toLowerCase())
    if (!currency) {
      throw quoteRejected('CURRENCY_NOT_FOUND', field, `No currency ${uuid} in the catalogue.`)
    }
    return currency
  }

  /** One call for every price the quote needs, in USD. */
  async #prices(codes: string[]): Promise<ReadonlyMap<string, string>> {
    const { rates } = await this.rates.quote('USD', codes)
    const missing = codes.find((code) => !rates.has(code))
    if (missing) throw new RatesUnavailableError(`The rates provider has no price for ${missing}.`)
    return rates
  }

  async #resolve(
    owner: Owner,
    query: QuoteQuery,
    from: repo.CurrencyRow,
    walletType: WalletType,
  ): Promise<Resolved> {
    const type = query.order_type
    switch (type) {
      case 'DEPOSIT_FIAT_SEPA':
      case 'DEPOSIT_FIAT_SWIFT': {
        requireBankRail(type, from)
        const rail = type === 'DEPOSIT_FIAT_SEPA' ? 'SEPA' : 'SWIFT'
        return {
          to: from,
          networkFee: false,
          payee: null,
          target: {
            ...emptyTarget,
            kind: 'bank_deposit',
            wallet_uuid: query.wallet_uuid,
            display: `${rail} bank transfer into this wallet`,
          },
        }
      }
      case 'WITHDRAWAL_FIAT_SEPA': {
        requireBankRail(type, from)
        const destination = await this.#destination(owner, query)
        if (destination.type !== 'SEPA') {
          throw quoteRejected(
            'DESTINATION_TYPE_MISMATCH',
            'destination_id',
            `${type} pays a SEPA destination; this one is ${destination.type}.`,
          )
        }
        return {
          to: from,
          networkFee: false,
          payee: payable(destination),
          target: {
            ...emptyTarget,
            kind: 'counterparty',
            counterparty_account_id: destination.counterparty_account_id,
            counterparty_destination_id: destination.counterparty_destination_id,
            destination_type: destination.type,
            display: `${destination.counterparty_name} · ${destination.display}`,
          },
        }
      }
      case 'WITHDRAWAL_CRYPTO':
        return this.#cryptoTarget(owner, query, from)
      case 'EXCHANGE_CRYPTO_INTERNAL': {
        if (query.to_uuid === undefined) throw invalid('to_uuid', `is required for ${type}`)
        const to = await this.#currency(query.to_uuid, 'to_uuid')
        if (!isExchangeable(from, to)) {
          throw quoteRejected(
            'DIRECTION_NOT_OFFERED',
            'to_uuid',
            from.code === to.code && from.uuid !== to.uuid
              ? `${currencyName(from)} into ${currencyName(to)} is a move between chains, not an exchange.`
              : 'An exchange needs two different currencies.',
          )
        }
        const targetWallet =
          query.to_wallet_uuid === undefined || query.to_wallet_uuid === query.wallet_uuid
            ? { id: query.wallet_uuid, type: walletType, same: true }
            : { ...(await this.#ownWallet(owner, query.to_wallet_uuid)), same: false }
        return {
          to,
          networkFee: false,
          payee: null,
          target: {
            ...emptyTarget,
            kind: 'wallet',
            wallet_uuid: targetWallet.id,
            display: targetWallet.same ? 'This wallet' : `Your ${targetWallet.type} wallet`,
          },
        }
      }
      case 'TRANSFER_CARD_PREPAID':
      case 'TRANSFER_CARD_SUBACCOUNT':
      case 'TRANSFER_CARD_WHOLESALE':
        return this.#cardTarget(owner, query, from)
    }
  }

  async #ownWallet(owner: Owner, walletId: string) {
    const wallet = await findWallet(this.db, owner, walletId)
    if (!wallet) throw walletNotFound()
    return wallet
  }

  async #destination(owner: Owner, query: QuoteQuery) {
    if (query.destination_id === undefined) {
      throw invalid('destination_id', `is required for ${query.order_type}`)
    }
    const destination = await findDestinationForWallet(this.db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      walletId: query.wallet_uuid,
      destinationId: query.destination_id,
    })
    if (!destination) throw new QuoteError({ kind: 'DESTINATION_NOT_FOUND' })
    return destination
  }

  /**
   * A saved crypto destination or a typed address. What lands in one of the
   * tenant's wallets — a CRYPTO_INTERNAL destination, or an address (typed or
   * saved) of a wallet on the platform — is paid inside the ledger: target
   * kind 'wallet' with its `wallet_uuid` (a saved destination keeps its
   * counterparty ids), and no network fee. Anything else goes on chain to
   * `target.chain`/`address`: kind 'address', or 'counterparty' when saved.
   * An address of the paying wallet itself is refused.
   */
  async #cryptoTarget(owner: Owner, query: QuoteQuery, from: repo.CurrencyRow): Promise<Resolved> {
    const type = query.order_type
    if (from.type === 'fiat' || !from.chain) {
      throw quoteRejected(
        'CURRENCY_NOT_ALLOWED',
        'from_uuid',
        `${type} withdraws a coin or token, not ${from.code}.`,
      )
    }
    const chain = from.chain
    if (query.destination_id !== undefined && query.address !== undefined) {
      throw invalid('address', 'cannot be given with destination_id: give one of them')
    }
    if (query.address !== undefined) {
      const check = validateAddress(chain, query.address)
      if (!check.ok) {
        throw quoteRejected(
          'ADDRESS_INVALID',
          'address',
          `Not a ${chain} address: ${check.reason}.`,
        )
      }
      const address = check.normalized
      const shown = maskDestination('CRYPTO_EXTERNAL', {
        iban: null,
        account_number: null,
        address,
        wallet_uuid: null,
      })
      const owned = await this.#addressOwner(owner, query, chain, address, 'address')
      return {
        to: from,
        networkFee: owned === undefined,
        payee: { kind: 'chain_address', chain, address },
        target: {
          ...emptyTarget,
          kind: owned === undefined ? 'address' : 'wallet',
          wallet_uuid: owned ?? null,
          chain,
          address,
          display: shown,
        },
      }
    }
    if (query.destination_id === undefined) {
      throw invalid('destination_id', `is required for ${type} (or give address)`)
    }
    const destination = await this.#destination(owner, query)
    const base = {
      ...emptyTarget,
      kind: 'counterparty' as const,
      counterparty_account_id: destination.counterparty_account_id,
      counterparty_destination_id: destination.counterparty_destination_id,
      destination_type: destination.type,
      display: `${destination.counterparty_name} · ${destination.display}`,
    }
    if (destination.type === 'CRYPTO_INTERNAL') {
      if (destination.wallet_uuid === query.wallet_uuid) {
        throw quoteRejected(
          'TARGET_IS_SOURCE',
          'destination_id',
          'This destination is the paying wallet itself.',
        )
      }
      return {
        to: from,
        networkFee: false,
        payee: payable(destination),
        target: { ...base, kind: 'wallet', wallet_uuid: destination.wallet_uuid, chain },
      }
    }
    if (destination.type !== 'CRYPTO_EXTERNAL') {
      throw quoteRejected(
        'DESTINATION_TYPE_MISMATCH',
        'destination_id',
        `${type} pays a crypto destination; this one is ${destination.type}.`,
      )
    }
    if (destination.chain !== chain) {
      throw quoteRejected(
        'CHAIN_MISMATCH',
        'destination_id',
        `This destination is on ${destination.chain}; ${currencyName(from)} is sent on ${chain}.`,
      )
    }
    const owned = await this.#addressOwner(
      owner,
      query,
      chain,
      destination.address!,
      'destination_id',
    )
    return {
      to: from,
      networkFee: owned === undefined,
      payee: payable(destination),
      target: {
        ...base,
        kind: owned === undefined ? 'counterparty' : 'wallet',
        wallet_uuid: owned ?? null,
        chain,
        address: destination.address,
      },
    }
  }

  /** The tenant's wallet holding the address, if any; the paying wallet's own is refused. */
  async #addressOwner(
    owner: Owner,
    query: QuoteQuery,
    chain: NonNullable<repo.CurrencyRow['chain']>,
    address: string,
    field: QuoteField,
  ) {
    const walletId = await repo.findAddressOwner(this.db, owner.tenantId, chain, address)
    if (walletId === query.wallet_uuid) {
      throw quoteRejected(
        'TARGET_IS_SOURCE',
        field,
        'This address belongs to the paying wallet itself.',
      )
    }
    return walletId
  }

  async #cardTarget(owner: Owner, query: QuoteQuery, from: repo.CurrencyRow): Promise<Resolved> {
    const type = query.order_type
    if (query.fiat_account_id === undefined) {
      throw invalid('fiat_account_id', `is required for ${type}`)
    }
    const account = await repo.findFiatAccount(this.db, owner, query.fiat_account_id)
    if (!account) throw new QuoteError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    const types = CARD_SUB_ACCOUNT_TYPES[type]!
    if (!types.includes(account.sub_account_type)) {
      throw quoteRejected(
        'FIAT_ACCOUNT_TYPE_MISMATCH',
        'fiat_account_id',
        `${type} tops up a ${types.join(' or ')} account; this one is ${account.sub_account_type}.`,
      )
    }
    if (account.status !== 'ACTIVE') {
      throw quoteRejected(
        'FIAT_ACCOUNT_NOT_ACTIVE',
        'fiat_account_id',
        `This account is ${account.status}: it takes no top-ups.`,
      )
    }
    const to = await this.#currency(account.currency_uuid, 'fiat_account_id')
    if (type === 'TRANSFER_CARD_WHOLESALE' ? !isWholesaleSource(from) : from.uuid !== to.uuid) {
      throw quoteRejected(
        'CURRENCY_NOT_ALLOWED',
        'from_uuid',
        type === 'TRANSFER_CARD_WHOLESALE'
          ? `${type} is paid in USDT or USDC, not ${from.code}.`
          : `This account holds ${to.code}: ${type} is paid in ${to.code}.`,
      )
    }
    return {
      to,
      networkFee: false,
      payee: null,
      programPercent: account.fee_top_up_percent,
      target: {
        ...emptyTarget,
        kind: 'fiat_account',
        wallet_uuid: account.wallet_id,
        fiat_account_id: account.id,
        display: `${account.program_name} · ${to.code}`,
      },
    }
  }
}

/** Exactly one of amount_from and amount_to. */
function givenAmount(query: QuoteQuery): AmountField {
  if (query.amount_from !== undefined && query.amount_to !== undefined) {
    throw invalid('amount_to', 'cannot be given with amount_from: give one of them')
  }
  if (query.amount_from === undefined && query.amount_to === undefined) {
    throw invalid('amount_from', 'is required (or give amount_to)')
  }
  return query.amount_from !== undefined ? 'amount_from' : 'amount_to'
}

function parseAmount(text: string, currency: repo.CurrencyRow, field: AmountField): bigint {
  try {
    return toMinor(text, currency.decimals)
  } catch (error) {
    if (error instanceof AmountError) {
      throw invalid(field, `has more than ${currency.decimals} decimal places (${currency.code})`)
    }
    throw error
  }
}

function requireBankRail(type: OrderType, from: repo.CurrencyRow) {
  const codes = BANK_RAIL_CURRENCIES[type]!
  if (from.type !== 'fiat' || !codes.includes(from.code)) {
    throw quoteRejected(
      'CURRENCY_NOT_ALLOWED',
      'from_uuid',
      `${type} takes ${codes.join(', ')}, not ${from.code}.`,
    )
  }
}

/** A saved destination checked for its order type has its payout fields. */
function payable(destination: Parameters<typeof payeeOf>[0]): StoredPayee {
  const payee = payeeOf(destination)
  if (!payee) throw new Error(`a ${destination.type} destination without its payout fields`)
  return payee
}

const currencyName = (currency: repo.CurrencyRow) =>
  currency.chain ? `${currency.code} on ${currency.chain}` : currency.code
