import type { Kysely } from 'kysely'
import type {
  ActivityDetail,
  ActivityEvent,
  ActivityItem,
  ActivityPage,
  ActivityQuery,
} from '../../../contract/activity.ts'
import type { ChainId } from '../../../contract/catalog.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { MoneySide } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import { toCardTransaction } from '../card-transactions/read-card-transactions.ts'
import * as cardRepo from '../card-transactions/repository.ts'
import { merchantOf } from '../card-transactions/rules.ts'
import { labelFor, recordLabels, toTransaction } from '../feed/records.ts'
import { orderActivityStatus } from '../feed/rules.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { findEvents } from '../orders/repository.ts'
import type { Owner } from '../owner.ts'
import { findRecordsOfActivity } from '../transactions/repository.ts'
import { findWallet } from '../wallets/repository.ts'
import { ActivityError } from './errors.ts'
import * as repo from './repository.ts'
import { activityTotal, checkRanges, decodeCursor, encodeCursor, searchPattern } from './rules.ts'

/**
 * The read side of the feed: one person's items, newest first, by keyset,
 * and one item with its timeline and ledger records. Items are written by the
 * areas that move money, through feed/store.ts; this only reads, and only the owner's.
 */
export class ActivityService {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * One page: `limit + 1` items are read to know whether another page
   * follows; nothing is counted.
   * @throws ActivityError WALLET_NOT_FOUND, CARD_NOT_FOUND, FIAT_ACCOUNT_NOT_FOUND for one that is not the owner's
   * @throws ActivityError INVALID_CURSOR for a cursor this service did not make
   * @throws ActivityError EMPTY_RANGE for `from` after `to` or `min` above `max`
   */
  async page(owner: Owner, query: ActivityQuery): Promise<ActivityPage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
    checkRanges(query)
    await this.#checkScope(owner, query)
    const rows = await repo.findPage(
      this.db,
      {
        ...owner,
        walletId: query.wallet_uuid,
        cardId: query.card_id,
        fiatAccountId: query.fiat_account_id,
      },
      {
        type: query.type,
        currency: query.currency?.trim().toUpperCase(),
        search: query.q === undefined ? undefined : searchPattern(query.q),
        from: query.from,
        to: query.to,
        min: query.min,
        max: query.max,
        status: query.status,
        sortMatches:
          (query.min !== undefined || query.max !== undefined) &&
          (await repo.fewInAmountRange(this.db, owner, query)),
      },
      after,
      query.limit + 1,
    )
    const data = rows.slice(0, query.limit)
    const last = data.at(-1)
    return {
      data: data.map(toItem),
      limit: query.limit,
      next_cursor:
        rows.length > query.limit && last
          ? encodeCursor({ at: last.cursor_at, id: last.id })
          : null,
    }
  }

  /**
   * The item, its timeline, and the wallet records and card transactions it wrote.
   * @throws ActivityError ACTIVITY_NOT_FOUND, also for another person's item
   */
  async detail(owner: Owner, id: string): Promise<ActivityDetail> {
    const row = await repo.findActivity(this.db, owner, id)
    if (!row) throw new ActivityError({ kind: 'ACTIVITY_NOT_FOUND' })
    const item = toItem(row)
    const [events, records, cardRows] = await Promise.all([
      // An order's steps are its own timeline; a receiver sees only their arrival (stored).
      row.source_type === 'order' && row.type !== 'receive'
        ? findEvents(this.db, [row.source_id])
        : undefined,
      findRecordsOfActivity(this.db, owner.tenantId, row.id),
      cardRepo.findByActivity(this.db, owner.tenantId, row.id),
    ])
    const labels = await recordLabels(this.db, owner.tenantId, records)
    const money = (minor: string | null) =>
      minor === null ? null : side(row, row.currency_uuid, minor)
    const timeline: ActivityEvent[] = events
      ? events.map((event) => ({
          status: orderActivityStatus(event.status),
          code: event.code,
          at: event.at.toISOString(),
          amount: null,
        }))
      : row.timeline.map((event) => ({ ...event, amount: money(event.amount_minor) }))
    return {
      ...item,
      timeline,
      records: records.map((record) => toTransaction(record, labelFor(labels, record))),
      card_transactions: cardRows.map(toCardTransaction),
    }
  }

  async #checkScope(owner: Owner, query: ActivityQuery): Promise<void> {
    const [wallet, card, account] = await Promise.all([
      query.wallet_uuid === undefined ? true : findWallet(this.db, owner, query.wallet_uuid),
      query.card_id === undefined ? true : cardRepo.findOwnedCard(this.db, owner, query.card_id),
      query.fiat_account_id === undefined
        ? true
        : fiatRepo.findFiatAccount(this.db, owner, { id: query.fiat_account_id }),
    ])
    if (!wallet) throw new ActivityError({ kind: 'WALLET_NOT_FOUND' })
    if (!card) throw new ActivityError({ kind: 'CARD_NOT_FOUND' })
    if (!account) throw new ActivityError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
  }
}

type Row = repo.ActivityRow

const side = (
  row: Pick<Row, 'currency' | 'chain' | 'decimals'>,
  currencyUuid: string,
  minor: string | bigint,
): MoneySide => ({
  currency_uuid: currencyUuid,
  currency: row.currency,
  chain: row.chain as ChainId | null,
  decimals: row.decimals,
  amount: fromMinor(BigInt(minor), row.decimals),
})

/** The row as the API answers it: money as MoneySide values, the total worked out (rules.ts). */
export function toItem(row: Row): ActivityItem {
  const money = (minor: string | bigint) => side(row, row.currency_uuid, minor)
  const fee = BigInt(row.fee_minor)
  const refunded = BigInt(row.refunded_minor)
  const total = activityTotal({
    status: row.status,
    direction: row.direction,
    amount: BigInt(row.amount_minor),
    fee,
    refunded,
  })
  const received =
    row.received_currency_uuid !== null &&
    row.received_minor !== null &&
    row.received_currency !== null &&
    row.received_decimals !== null
      ? side(
          {
            currency: row.received_currency,
            chain: row.received_chain,
            decimals: row.received_decimals,
          },
          row.received_currency_uuid,
          row.received_minor,
        )
      : null
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    direction: row.direction,
    wallet_uuid: row.wallet_id,
    counter_wallet_uuid: row.counter_wallet_id,
    card_id: row.card_id,
    card_last4: row.card_last4,
    fiat_account_id: row.fiat_account_id,
    amount: money(row.amount_minor),
    fee: fee > 0n ? money(fee) : null,
    total: money(total),
    received,
    refunded: row.type === 'card_purchase' && refunded > 0n ? money(refunded) : null,
    rate: row.rate,
    counterparty_name: row.counterparty_name,
    merchant: merchantOf(row),
    address: row.address,
    reference: row.reference,
    tx_hash: row.tx_hash,
    note: row.note,
    confirmations: row.confirmations,
    required_confirmations: row.required_confirmations,
    fee_kind: row.fee_kind,
    failure_code: row.failure_code,
    channel: row.card_channel,
    dispute:
      row.dispute_id !== null && row.dispute_status !== null
        ? { id: row.dispute_id, status: row.dispute_status }
        : null,
    source: { type: row.source_type, id: row.source_id, order_type: row.order_type },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
