import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'

/*
 * What is written on a fiat account by those who spend from it or pay into
 * it — the card network, a card's fees, a top-up, a bank credit: the
 * account's row lock they all take, and the records the platform itself
 * writes in its statement (the card_transactions rows no network message
 * made). Here, with the account's owner, so a card (an account below the
 * card network) writes its fee without reaching up into the network's storage.
 */

type Executor = Kysely<DB> | Transaction<DB>

/** Locks the fiat account row: one authorisation at a time spends from it. */
export async function lockFiatAccount(trx: Transaction<DB>, id: string) {
  return trx
    .selectFrom('fiat_accounts')
    .select(['id', 'status', 'hold_ledger_account_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/**
 * A record the platform itself writes, not the network: a program FEE of a
 * card, or a DEPOSIT on a fiat account (no card). Answers false when its
 * unique index says it exists already (the fee of that period, the deposit of
 * that operation): a repeat writes nothing.
 */
export async function insertOwnRecord(
  trx: Transaction<DB>,
  t: {
    id: string
    tenantId: string
    userId: string
    cardId: string | null
    fiatAccountId: string
    walletId: string
    currencyUuid: string
    amountMinor: bigint
    activityId: string | null
    at: Date
  } & (
    | {
        type: 'FEE'
        status: 'SETTLED' | 'DECLINED'
        feeKind: 'ISSUE' | 'MONTHLY'
        feePeriod: string | null
      }
    | { type: 'DEPOSIT'; status: 'SETTLED'; operationId: string }
  ),
): Promise<boolean> {
  const inserted = await trx
    .insertInto('card_transactions')
    .values({
      id: t.id,
      tenant_id: t.tenantId,
      user_id: t.userId,
      card_id: t.cardId,
      fiat_account_id: t.fiatAccountId,
      wallet_id: t.walletId,
      type: t.type,
      status: t.status,
      currency_uuid: t.currencyUuid,
      amount_minor: t.amountMinor.toString(),
      decline_reason: t.status === 'DECLINED' ? 'INSUFFICIENT_FUNDS' : null,
      exceeded_limit: null,
      authorization_id: null,
      fee_kind: t.type === 'FEE' ? t.feeKind : null,
      fee_period: t.type === 'FEE' ? t.feePeriod : null,
      operation_id: t.type === 'DEPOSIT' ? t.operationId : null,
      activity_id: t.activityId,
      created_at: t.at,
      updated_at: t.at,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

/** Who and what a fiat account is, for a record written on it: its wallet's owner and currency. */
export function findAccountHolder(db: Executor, fiatAccountId: string) {
  return db
    .selectFrom('fiat_accounts as f')
    .innerJoin('wallets as w', 'w.id', 'f.wallet_id')
    .select(['f.id', 'f.tenant_id', 'f.wallet_id', 'f.currency_uuid', 'w.user_id'])
    .where('f.id', '=', fiatAccountId)
    .executeTakeFirst()
}
