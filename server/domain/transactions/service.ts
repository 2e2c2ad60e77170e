import type { Kysely } from 'kysely'
import type { TransactionList, WalletTransaction } from '../../../contract/wallets.ts'
import type { DB } from '../../infra/db/schema.ts'
import { labelFor, labelledRecord, recordLabels, toTransaction } from '../feed/records.ts'
import type { Owner } from '../owner.ts'
import { type HistoryWindow, historyPage, rowsFor } from '../page.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { TransactionError } from './errors.ts'
import type { Cursor, TransactionFilter } from './repository.ts'
import * as repo from './repository.ts'
import { checkDateRange, csvHeader, csvTransaction } from './rules.ts'

export type { TransactionFilter } from './repository.ts'

/** Rows per keyset page of the CSV export: one short query each, about 1 MB of objects at most. */
export const EXPORT_PAGE_SIZE = 1000

/**
 * The read side of a wallet's history: the records people see, newest first.
 * Records are written elsewhere (deposits, orders); this only reads them, and
 * only in wallets the owner holds.
 */
export class TransactionService {
  readonly #exportPageSize: number
  readonly #onExportPage: (rows: number) => void

  constructor(
    private readonly db: Kysely<DB>,
    options: {
      /** Rows per keyset page of the CSV export. */
      exportPageSize?: number
      /** Told after each page an export reads (a metric counts rows exported). */
      onExportPage?: (rows: number) => void
    } = {},
  ) {
    this.#exportPageSize = options.exportPageSize ?? EXPORT_PAGE_SIZE
    this.#onExportPage = options.onExportPage ?? (() => {})
  }

  /**
   * @throws WALLET_NOT_FOUND (WalletError) also for another user's (or tenant's) wallet
   * @throws TransactionError INVALID_DATE_RANGE when `from` is after `to`
   */
  async listTransactions(
    owner: Owner,
    walletId: string,
    query: TransactionFilter & HistoryWindow,
  ): Promise<TransactionList> {
    const { limit, offset, with_total, ...filter } = query
    const page = { limit, offset, with_total }
    const scope = await this.#scope(owner, walletId, filter)
    const rows = await repo.findTransactions(this.db, scope, filter, rowsFor(page))
    const labels = await recordLabels(this.db, scope.tenantId, rows)
    return historyPage(
      rows.map((row) => toTransaction(row, labelFor(labels, row))),
      page,
      () => repo.countTransactions(this.db, scope, filter),
    )
  }

  /**
   * @throws WALLET_NOT_FOUND (WalletError) for a wallet the owner does not hold
   * @throws TransactionError TRANSACTION_NOT_FOUND for a record of any other wallet, the owner's included
   */
  async getTransaction(owner: Owner, walletId: string, id: string): Promise<WalletTransaction> {
    const scope = await this.#scope(owner, walletId, {})
    const row = await repo.findTransaction(this.db, scope, id)
    if (!row) throw new TransactionError({ kind: 'TRANSACTION_NOT_FOUND' })
    return labelledRecord(this.db, scope.tenantId, row)
  }

  /**
   * Checks the wallet and the filter now — so a mistake is still an ordinary
   * problem answer — and returns the CSV as a lazy sequence of chunks: the
   * header, then one chunk per keyset page. Nothing is read before a chunk is
   * asked for, so a slow reader holds at most a page in memory, and no
   * connection is held between pages. Not a snapshot: a record written during
   * the export is left out (it is newer than the first page) and a status that
   * changes shows as it was when its page was read.
   * @throws WALLET_NOT_FOUND (WalletError), TransactionError INVALID_DATE_RANGE as listTransactions
   */
  async exportCsv(
    owner: Owner,
    walletId: string,
    filter: TransactionFilter,
  ): Promise<AsyncGenerator<string>> {
    const scope = await this.#scope(owner, walletId, filter)
    const { db } = this
    const size = this.#exportPageSize
    const onPage = this.#onExportPage
    return (async function* csv() {
      yield csvHeader()
      let after: Cursor | undefined
      for (;;) {
        const rows = await repo.findPageAfter(db, scope, filter, after, size)
        onPage(rows.length)
        const labels = await recordLabels(db, scope.tenantId, rows)
        if (rows.length > 0) {
          yield rows
            .map((row) => csvTransaction(toTransaction(row, labelFor(labels, row))))
            .join('')
        }
        if (rows.length < size) return
        const last = rows[rows.length - 1]!
        after = { createdAt: last.cursor_at, id: last.id }
      }
    })()
  }

  async #scope(owner: Owner, walletId: string, filter: TransactionFilter) {
    checkDateRange(filter)
    const wallet = await findWallet(this.db, owner, walletId)
    if (!wallet) throw walletNotFound()
    return { tenantId: owner.tenantId, walletId: wallet.id }
  }
}
