import type { Kysely } from 'kysely'
import { fromMinor } from '../../../contract/money.ts'
import type {
  ExchangeDirectionList,
  ExchangeQuery,
  Quote,
  QuoteQuery,
} from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import { readOnce } from '../../infra/read-once.ts'
import type { NetworkFeeEstimator } from '../../providers/chain/fees.ts'
import { type RatesProvider, RatesUnavailableError } from '../../providers/rates/rates.ts'
import type { Owner } from '../owner.ts'
import { wholePage } from '../page.ts'
import { exchangeDirections } from './direction-rules.ts'
import { type QuoteField, quoteRejected } from './errors.ts'
import {
  AmountLimitError,
  amountLimits,
  exchangeRate,
  feeRule,
  networkFeeMinor,
  PAR,
  priceQuote,
  spreadPercent,
} from './pricing.ts'
import { ownWallet, QuoteDestinations } from './quote-destinations.ts'
import {
  checkTargetFields,
  currencyName,
  givenAmount,
  invalid,
  parseAmount,
} from './quote-input.ts'
import * as repo from './quote-repository.ts'
import type { QuoteTerms, QuoteTokens } from './quote-token.ts'
import { toQuote } from './quote-view.ts'

export interface QuoteOptions {
  /** QUOTE_TTL_SECONDS: how long a quote can be placed. */
  ttlSeconds: number
  /** What quotes are signed with; placing opens them with the same (OrderSettings). */
  tokens: QuoteTokens
  now?: () => Date
}

/**
 * Firm quotes (`GET /orders/calc`) and the indicative directions list
 * (`GET /exchange/`). A quote checks who may pay whom and how much, prices it
 * with one call to the rates provider (none when nothing needs a price), and
 * answers it signed (quote-token.ts): its quote_id carries it to the order
 * that places it, and nothing is stored. It does not look at the balance:
 * placing the order does, when it holds the funds.
 */
export class QuoteService {
  /** The catalogue by uuid: fixed by the migrations, read once. */
  readonly #catalogue = readOnce(
    async () => new Map((await repo.findCatalogue(this.db)).map((row) => [row.uuid, row])),
  )

  readonly #destinations: QuoteDestinations

  constructor(
    private readonly db: Kysely<DB>,
    private readonly rates: RatesProvider,
    private readonly networkFees: NetworkFeeEstimator,
    private readonly options: QuoteOptions,
  ) {
    this.#destinations = new QuoteDestinations(db, (uuid, field) => this.#currency(uuid, field))
  }

  /** What its quotes are signed with: placing opens them with the same (OrderSettings). */
  get tokens(): QuoteTokens {
    return this.options.tokens
  }

  /**
   * Prices the quote and signs it: no statement but the reads that resolve it.
   * @throws QuoteError (422 naming a field; 404 for a destination or account),
   *   WALLET_NOT_FOUND (WalletError), RatesUnavailableError (502)
   */
  async create(
    owner: Owner,
    query: QuoteQuery,
    now = this.options.now?.() ?? new Date(),
  ): Promise<Quote> {
    const amountField = givenAmount(query)
    const wallet = await ownWallet(this.db, owner, query.wallet_uuid)
    const from = await this.#currency(query.from_uuid, 'from_uuid')
    checkTargetFields(query)
    const resolved = await this.#destinations.resolve(owner, query, from, wallet.type)
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

    const terms: QuoteTerms = {
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
    }
    const id = this.options.tokens.sign(owner, terms)
    return toQuote(
      { ...terms, id },
      new Map([from, to].map((currency) => [currency.uuid, currency])),
    )
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
}
