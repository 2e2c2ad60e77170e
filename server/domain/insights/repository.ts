import { type Kysely, sql, type Transaction } from 'kysely'
import type { ActivityStatus } from '../../../contract/activity.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { INCOME_TYPES, SPENDING_TYPES } from './rules.ts'

type Executor = Kysely<DB> | Transaction<DB>

/** Statuses of items that moved no money in the end (activity/rules.ts activityTotal). */
const NOTHING_MOVED: ActivityStatus[] = ['failed', 'canceled', 'declined', 'reversed', 'refunded']

/**
 * The person's spending and income from `since` to `to`, summed per what
 * decides its group and its conversion: type, currencies, recorded rate,
 * merchant code and name, the month in `timeZone`, and whether it falls
 * before `from` (the previous period). One walk of the person's feed index
 * over the range; what an item changed their money by is activityTotal's
 * (out: amount + fee − refunded; in: amount).
 */
export function movementSums(
  db: Executor,
  owner: Owner,
  range: { since: Date; from: Date; to: Date; timeZone: string; byName: boolean },
) {
  const name = range.byName
    ? sql<string | null>`coalesce(a.merchant_name, a.counterparty_name, a.address)`
    : sql<string | null>`null`
  return db
    .selectFrom('activities as a')
    .innerJoin('currencies as c', 'c.uuid', 'a.currency_uuid')
    .leftJoin('currencies as r', 'r.uuid', 'a.received_currency_uuid')
    .select([
      'a.type',
      'c.code as currency',
      'c.decimals',
      'r.code as received',
      'a.rate',
      'a.merchant_mcc as mcc',
      name.as('payee'),
      sql<string>`to_char(a.created_at at time zone ${range.timeZone}, 'YYYY-MM')`.as('month'),
      sql<boolean>`a.created_at >= ${range.from}`.as('in_period'),
      sql<string>`sum(case when a.direction = 'in' then a.amount_minor
        else a.amount_minor + a.fee_minor - a.refunded_minor end)`.as('total'),
      sql<string>`count(*)`.as('count'),
    ])
    .where('a.tenant_id', '=', owner.tenantId)
    .where('a.user_id', '=', owner.userId)
    .where('a.created_at', '>=', range.since)
    .where('a.created_at', '<', range.to)
    .where('a.status', 'not in', NOTHING_MOVED)
    .where((eb) =>
      eb.or([
        eb.and([eb('a.direction', '=', 'out'), eb('a.type', 'in', SPENDING_TYPES)]),
        eb.and([eb('a.direction', '=', 'in'), eb('a.type', 'in', INCOME_TYPES)]),
      ]),
    )
    .groupBy([
      'a.type',
      'c.code',
      'c.decimals',
      'r.code',
      'a.rate',
      'a.merchant_mcc',
      'payee',
      'month',
      'in_period',
    ])
    .execute()
}
export type MovementSum = Awaited<ReturnType<typeof movementSums>>[number]

/**
 * Per currency and day (or week, from Monday) in `timeZone`, what the
 * accounts' postings booked in [from, to) changed them by.
 */
export function balanceChanges(
  db: Executor,
  accounts: readonly string[],
  range: { from: Date; to: Date; timeZone: string; interval: 'day' | 'week' },
) {
  if (accounts.length === 0) return Promise.resolve([])
  const unit = range.interval === 'week' ? sql.lit('week') : sql.lit('day')
  return db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select([
      'p.currency_uuid',
      sql<string>`to_char(date_trunc(${unit}, e.created_at at time zone ${range.timeZone}), 'YYYY-MM-DD')`.as(
        'bucket',
      ),
      sql<string>`sum(p.amount_minor)`.as('change'),
    ])
    .where('p.account_id', 'in', accounts)
    .where('e.created_at', '>=', range.from)
    .where('e.created_at', '<', range.to)
    .groupBy(['p.currency_uuid', 'bucket'])
    .execute()
}
