import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import { credit, EUR, newWallet } from './ledger-test-support.ts'
import type { MoneyTransaction } from './money-command.ts'
import { transfer } from './rules.ts'

/** Entries and events written under one marker, to see what a command left behind. */
export async function traces(db: Kysely<DB>, key: string, userId: string) {
  const entries = await db
    .selectFrom('journal_entries')
    .select('id')
    .where('idempotency_key', '=', key)
    .execute()
  const events = await db
    .selectFrom('events')
    .select('kind')
    .where('user_id', '=', userId)
    .execute()
  return { entries: entries.length, events: events.map((event) => event.kind) }
}

/** Two wallets of one person, €100 on the first. */
export async function twoWallets(db: Kysely<DB>, tenantId: string) {
  const from = await newWallet(db, tenantId)
  const to = await newWallet(db, tenantId, from.owner.userId)
  await credit(db, tenantId, from.accounts.user_wallet, EUR, 10_000n)
  return { from, to, userId: from.owner.userId }
}

export type TwoWallets = Awaited<ReturnType<typeof twoWallets>>

/** An event of the person's, told by a command. */
export const told = (userId: string, changedAt = new Date().toISOString()) => ({
  userId,
  kind: 'security.password_changed' as const,
  payload: { via: 'change' as const, changed_at: changedAt },
})

/** A command's work: euros from the first wallet to the second, then (`tell`) an event. */
export const moveEuros =
  (wallets: TwoWallets, key: string, amount: bigint, tell = true) =>
  async (money: MoneyTransaction) => {
    const entry = await money.post({
      kind: 'transfer',
      idempotencyKey: key,
      postings: transfer(
        wallets.from.accounts.user_wallet,
        wallets.to.accounts.user_wallet,
        EUR,
        amount,
      ),
    })
    if (tell) await money.emit(told(wallets.userId))
    return { entry: entry.id }
  }

/** The same, told first: a command that writes nothing after its entry (`oneStatement`). */
export const tellThenMove =
  (wallets: TwoWallets, key: string, amount: bigint) => async (money: MoneyTransaction) => {
    await money.emit(told(wallets.userId))
    return moveEuros(wallets, key, amount, false)(money)
  }
