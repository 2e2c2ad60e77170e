import type { Kysely } from 'kysely'
import type { CardTransaction, CardTransactionList } from '../../../contract/card-transactions.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { DB } from '../../infra/db/schema.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import type { Owner } from '../owner.ts'
import { type HistoryWindow, historyPage, rowsFor } from '../page.ts'
import { CardTransactionError } from './errors.ts'
import * as repo from './repository.ts'
import { cardCsvHeader, cardCsvLine, merchantOf } from './rules.ts'

/** Rows per keyset page of the CSV export. */
const EXPORT_PAGE_SIZE = 500

/** What the owner reads: card transactions, by card, by fiat account, or all. */
export class CardTransactionService {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Newest first. A card or fiat account of another user answers like a missing one.
   * @throws CardTransactionError CARD_NOT_FOUND, FIAT_ACCOUNT_NOT_FOUND
   */
  async list(
    owner: Owner,
    filter: { card_id?: string; fiat_account_id?: string; walletId?: string },
    page: HistoryWindow,
  ): Promise<CardTransactionList> {
    const scope = await this.scope(owner, filter)
    const rows = await repo.findTransactions(this.db, scope, rowsFor(page))
    return historyPage(rows.map(toCardTransaction), page, () =>
      repo.countTransactions(this.db, scope),
    )
  }

  /**
   * Checks the card now (a mistake is still a problem answer), then yields
   * the CSV lazily: the header, then one chunk per keyset page, no
   * connection held between pages.
   * @throws CardTransactionError CARD_NOT_FOUND
   */
  async exportCsv(owner: Owner, cardId: string, pageSize = EXPORT_PAGE_SIZE) {
    const scope = await this.scope(owner, { card_id: cardId })
    const { db } = this
    return (async function* csv() {
      yield cardCsvHeader()
      let after: { createdAt: string; id: string } | undefined
      for (;;) {
        const rows = await repo.findPageAfter(db, scope, after, pageSize)
        if (rows.length > 0) yield rows.map((row) => cardCsvLine(toCardTransaction(row))).join('')
        if (rows.length < pageSize) return
        const last = rows[rows.length - 1]!
        after = { createdAt: last.cursor_at, id: last.id }
      }
    })()
  }

  private async scope(
    owner: Owner,
    filter: { card_id?: string; fiat_account_id?: string; walletId?: string },
  ): Promise<repo.CardTransactionScope> {
    if (
      filter.card_id !== undefined &&
      !(await repo.findOwnedCard(this.db, owner, filter.card_id))
    ) {
      throw new CardTransactionError({ kind: 'CARD_NOT_FOUND' })
    }
    if (filter.fiat_account_id !== undefined) {
      const account = await fiatRepo.findFiatAccount(this.db, owner, {
        id: filter.fiat_account_id,
        ...(filter.walletId !== undefined && { walletId: filter.walletId }),
      })
      if (!account) throw new CardTransactionError({ kind: 'FIAT_ACCOUNT_NOT_FOUND' })
    }
    return {
      tenantId: owner.tenantId,
      userId: owner.userId,
      cardId: filter.card_id,
      fiatAccountId: filter.fiat_account_id,
    }
  }
}

export const toCardTransaction = (row: repo.CardTransactionRow): CardTransaction => ({
  id: row.id,
  card_id: row.card_id,
  card_last4: row.last4,
  fiat_account_id: row.fiat_account_id,
  wallet_uuid: row.wallet_id,
  type: row.type,
  status: row.status,
  amount: fromMinor(BigInt(row.amount_minor), row.decimals),
  currency: row.currency,
  currency_uuid: row.currency_uuid,
  merchant: merchantOf(row),
  decline_reason: row.decline_reason,
  exceeded_limit: row.exceeded_limit,
  channel: row.channel,
  authorization_id: row.authorization_id,
  ...(row.fee_kind !== null && { fee_kind: row.fee_kind }),
  activity_id: row.activity_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
