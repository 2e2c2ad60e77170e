import type { Kysely } from 'kysely'
import type {
  BalanceHistory,
  BalanceHistoryQuery,
  SpendingGroup,
  SpendingInsights,
  SpendingQuery,
} from '../../../contract/insights.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { RateBase } from '../../../contract/rates.ts'
import type { DB } from '../../infra/db/schema.ts'
import { type RatesProvider, RatesUnavailableError } from '../../providers/rates/rates.ts'
import { findCurrenciesByUuid } from '../catalog/repository.ts'
import type { Owner } from '../owner.ts'
import { balancesAt, walletStatementAccounts } from '../statements/repository.ts'
import { isTimeZone } from '../statements/rules.ts'
import { InsightError } from './errors.ts'
import * as repo from './repository.ts'
import {
  type Conversion,
  calendar,
  categoryOf,
  changePercent,
  conversionFor,
  convert,
  INCOME_TYPES,
  monthBefore,
  months,
  rateBasis,
} from './rules.ts'

const DAY_MS = 86_400_000
const MAX_DAYS = 366
/** The display currencies keep cents. */
const DISPLAY_DECIMALS = 2

interface Period {
  from: Date
  to: Date
  timeZone: string
}

/**
 * `from` before `to`, at most a year apart, in a zone Intl knows.
 * @throws InsightError INVALID_PERIOD
 */
function period(query: { from: string; to: string; time_zone?: string }): Period {
  const from = new Date(query.from)
  const to = new Date(query.to)
  const timeZone = query.time_zone ?? 'UTC'
  const fault = (field: string, message: string) =>
    new InsightError({ kind: 'INVALID_PERIOD', field: `/querystring/${field}`, message })
  if (to <= from) throw fault('from', 'must be before to')
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) {
    throw fault('to', `must be at most ${MAX_DAYS} days after from`)
  }
  if (!isTimeZone(timeZone))
    throw fault('time_zone', 'must be an IANA time zone, such as Europe/Berlin')
  return { from, to, timeZone }
}

interface Tally {
  spending: bigint
  income: bigint
  count: number
}
const emptyTally = (): Tally => ({ spending: 0n, income: 0n, count: 0 })

/**
 * Where the money went and came from, in the person's display currency, and
 * how a wallet's balance moved — read from the activity feed and the ledger.
 */
export class InsightsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly rates: RatesProvider,
  ) {}

  /**
   * Spending and income of `from`–`to` grouped by category, merchant or
   * month, each group with the same group's spending in the period before.
   * @throws InsightError INVALID_PERIOD, RATES_UNAVAILABLE
   */
  async spending(owner: Owner, query: SpendingQuery): Promise<SpendingInsights> {
    const { from, to, timeZone } = period(query)
    const group = query.group ?? 'category'
    const display: RateBase = query.currency ?? 'EUR'
    const since = new Date(from.getTime() - (to.getTime() - from.getTime()))
    const rows = await repo.movementSums(this.db, owner, {
      since,
      from,
      to,
      timeZone,
      byName: group === 'merchant',
    })
    const today = await this.#today(display, rows)

    const used = new Set<Conversion['basis']>()
    const current = new Map<string, Tally>()
    const previous = new Map<string, Tally>()
    const totals = { current: emptyTally(), previous: emptyTally() }
    for (const row of rows) {
      const conversion = conversionFor(row, display, today.rates)
      used.add(conversion.basis)
      const minor = BigInt(row.total)
      const amount =
        conversion.basis === 'same'
          ? minor
          : conversion.basis === 'none'
            ? 0n
            : convert(minor, row.decimals, conversion.rate, DISPLAY_DECIMALS)
      const income = INCOME_TYPES.includes(row.type)
      const key =
        group === 'month'
          ? row.month
          : group === 'category'
            ? categoryOf(row.type, row.mcc)
            : row.payee
      const count = Number(row.count)
      const into = (tally: Tally) => {
        if (income) tally.income += amount
        else tally.spending += amount
        tally.count += count
      }
      into(row.in_period ? totals.current : totals.previous)
      // Groups are of spending, but for months, which hold income too; a merchant is a payee.
      if (key === null || (income && group !== 'month')) continue
      const groups = row.in_period || group === 'month' ? current : previous
      const tally = groups.get(key) ?? emptyTally()
      into(tally)
      groups.set(key, tally)
    }

    const money = (minor: bigint) => fromMinor(minor, DISPLAY_DECIMALS)
    const answer = (key: string, tally: Tally, before: bigint): SpendingGroup => ({
      key,
      spending: money(tally.spending),
      income: money(tally.income),
      count: tally.count,
      previous_spending: money(before),
      change_percent: changePercent(tally.spending, before),
    })
    const groups =
      group === 'month'
        ? months(from, to, timeZone).map((month) =>
            answer(
              month,
              current.get(month) ?? emptyTally(),
              (current.get(monthBefore(month)) ?? emptyTally()).spending,
            ),
          )
        : [...current.entries()]
            .map(([key, tally]) => answer(key, tally, previous.get(key)?.spending ?? 0n))
            .sort((a, b) => compareAmounts(b.spending, a.spending) || a.key.localeCompare(b.key))
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      group,
      currency: display,
      spending: money(totals.current.spending),
      income: money(totals.current.income),
      previous_spending: money(totals.previous.spending),
      previous_income: money(totals.previous.income),
      groups,
      rate_basis: rateBasis(used),
      rates_as_of: used.has('current') ? (today.asOf?.toISOString() ?? null) : null,
    }
  }

  /**
   * The wallet's balance (available and held for an order) at the end of
   * each day or week, per currency, from its ledger accounts' postings; with
   * `currency`, their total at today's rates.
   * @throws InsightError WALLET_NOT_FOUND, INVALID_PERIOD, RATES_UNAVAILABLE
   */
  async balanceHistory(owner: Owner, query: BalanceHistoryQuery): Promise<BalanceHistory> {
    const { from, to, timeZone } = period(query)
    const interval = query.interval ?? 'day'
    const wallet = await this.db
      .selectFrom('wallets')
      .select('id')
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('id', '=', query.wallet_uuid)
      .executeTakeFirst()
    if (!wallet) throw new InsightError({ kind: 'WALLET_NOT_FOUND' })
    const accounts = (await walletStatementAccounts(this.db, owner.tenantId, wallet.id)).map(
      (account) => account.id,
    )
    const [opening, changes] = await Promise.all([
      balancesAt(this.db, accounts, from),
      repo.balanceChanges(this.db, accounts, { from, to, timeZone, interval }),
    ])
    const byCurrency = new Map<string, Map<string, bigint>>()
    for (const change of changes) {
      const buckets = byCurrency.get(change.currency_uuid) ?? new Map<string, bigint>()
      buckets.set(change.bucket, BigInt(change.change))
      byCurrency.set(change.currency_uuid, buckets)
    }
    const uuids = [...new Set([...opening.keys(), ...byCurrency.keys()])].filter(
      (uuid) => (opening.get(uuid) ?? 0n) !== 0n || byCurrency.has(uuid),
    )
    const catalogue = (uuids.length === 0 ? [] : await findCurrenciesByUuid(this.db, uuids)).sort(
      (a, b) => a.sort_order - b.sort_order,
    )
    const days = calendar(from, to, timeZone, interval)
    const lines = catalogue.map((currency) => {
      let balance = opening.get(currency.uuid) ?? 0n
      const buckets = byCurrency.get(currency.uuid)
      const minors = days.map((day) => {
        balance += buckets?.get(day) ?? 0n
        return balance
      })
      return { currency, minors }
    })

    let total: BalanceHistory['total'] = null
    if (query.currency) {
      const display = query.currency
      const today = await this.#quote(
        display,
        catalogue.filter((currency) => currency.code !== display).map((currency) => currency.code),
      )
      const sums = days.map((_, i) =>
        lines.reduce((sum, { currency, minors }) => {
          const conversion = conversionFor(
            { currency: currency.code, received: null, rate: null },
            display,
            today.rates,
          )
          if (conversion.basis === 'same') {
            return sum + convert(minors[i]!, currency.decimals, '1', DISPLAY_DECIMALS)
          }
          if (conversion.basis !== 'current') return sum
          return sum + convert(minors[i]!, currency.decimals, conversion.rate, DISPLAY_DECIMALS)
        }, 0n),
      )
      total = {
        currency: display,
        rates_as_of: (today.asOf ?? new Date()).toISOString(),
        points: days.map((date, i) => ({ date, balance: fromMinor(sums[i]!, DISPLAY_DECIMALS) })),
      }
    }
    return {
      wallet_uuid: wallet.id,
      from: from.toISOString(),
      to: to.toISOString(),
      interval,
      currencies: lines.map(({ currency, minors }) => ({
        currency_uuid: currency.uuid,
        currency: currency.code,
        chain: currency.chain,
        decimals: currency.decimals,
        points: days.map((date, i) => ({
          date,
          balance: fromMinor(minors[i]!, currency.decimals),
        })),
      })),
      total,
    }
  }

  /** Today's rates for the codes the rows need converted at them (none asked: none fetched). */
  #today(display: string, rows: readonly repo.MovementSum[]) {
    const codes = rows
      .filter((row) => conversionFor(row, display, new Map()).basis !== 'same')
      .filter((row) => !(row.rate && row.received === display))
      .map((row) => row.currency)
    return this.#quote(display, codes)
  }

  async #quote(
    display: string,
    codes: readonly string[],
  ): Promise<{ rates: ReadonlyMap<string, string>; asOf: Date | null }> {
    const wanted = [...new Set(codes)]
    if (wanted.length === 0) return { rates: new Map(), asOf: null }
    try {
      const quote = await this.rates.quote(display, wanted)
      return { rates: quote.rates, asOf: quote.asOf }
    } catch (error) {
      if (error instanceof RatesUnavailableError)
        throw new InsightError({ kind: 'RATES_UNAVAILABLE' })
      throw error
    }
  }
}

/** Two non-negative decimal strings of the same places, compared. */
const compareAmounts = (a: string, b: string) => {
  const difference = BigInt(a.replace('.', '')) - BigInt(b.replace('.', ''))
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}
