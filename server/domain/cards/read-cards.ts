import type { Card, CardDetail, CardList, CardListQuery } from '../../../contract/cards.ts'
import { fromMinor } from '../../../contract/money.ts'
import * as fiatRepo from '../fiat-accounts/repository.ts'
import { toFiatAccount } from '../fiat-accounts/service.ts'
import type { Owner } from '../owner.ts'
import { pageOf } from '../page.ts'
import type { CardDeps } from './card-deps.ts'
import { CardError } from './errors.ts'
import * as repo from './repository.ts'

/** The owner's cards, narrowed by wallet, sub-account type and fiat account; oldest first. */
export async function listCards(
  deps: CardDeps,
  owner: Owner,
  query: CardListQuery,
): Promise<CardList> {
  const filters: repo.CardFilters = {
    walletId: query.wallet_uuid,
    subAccountType: query.sub_account_type,
    fiatAccountId: query.fiat_account_id,
  }
  const [rows, total] = await Promise.all([
    repo.findCards(deps.db, owner, filters, query),
    repo.countCards(deps.db, owner, filters),
  ])
  return pageOf(rows.map(toCard), total, query)
}

/** @throws CardError CARD_NOT_FOUND also for another user's */
export async function getCard(deps: CardDeps, owner: Owner, id: string): Promise<Card> {
  const row = await repo.findCard(deps.db, owner, id)
  if (!row) throw new CardError({ kind: 'CARD_NOT_FOUND' })
  return toCard(row)
}

/**
 * The card with the full fiat account it spends from; the account's `type`
 * is the card's own account type.
 * @throws CardError CARD_NOT_FOUND
 */
export async function cardDetail(deps: CardDeps, owner: Owner, id: string): Promise<CardDetail> {
  const card = await getCard(deps, owner, id)
  const account = await fiatRepo.findFiatAccount(deps.db, owner, { id: card.fiat_account.id })
  if (!account) throw new Error(`fiat account ${card.fiat_account.id} of card ${id} vanished`)
  return {
    ...card,
    fiat_account: { ...toFiatAccount(account, deps.settings.bank), type: card.fiat_account.type },
  }
}

export const toCard = (row: repo.CardRow): Card => ({
  id: row.id,
  wallet_uuid: row.wallet_id,
  program_id: row.program_id,
  nick_name: row.nick_name,
  last4: row.last4,
  expiry_month: row.expiry_month,
  expiry_year: row.expiry_year,
  status: row.status,
  frozen_by_lockdown: row.frozen_by_lockdown,
  form_factor: row.form_factor,
  card_type: row.card_type,
  currency_uuid: row.currency_uuid,
  currency: row.currency,
  stand_alone: row.stand_alone,
  fiat_account: { id: row.fiat_account_id, type: row.sub_account_type },
  limits: {
    per_transaction: fromMinor(BigInt(row.limit_per_transaction_minor), row.decimals),
    daily: fromMinor(BigInt(row.limit_daily_minor), row.decimals),
    monthly: fromMinor(BigInt(row.limit_monthly_minor), row.decimals),
  },
  delivery:
    row.delivery_status && row.delivery_address && row.delivery_updated_at
      ? {
          address: row.delivery_address,
          status: row.delivery_status,
          updated_at: row.delivery_updated_at.toISOString(),
        }
      : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
