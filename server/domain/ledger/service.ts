import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { DB, LedgerAccountKind } from '../../infra/db/schema.ts'
import type { Write } from '../../infra/db/together.ts'
import { isUniqueViolation } from '../../infra/db/unique-violation.ts'
import { bookingTime } from './booking-time.ts'
import { LedgerError } from './errors.ts'
import * as repo from './repository.ts'
import { balanceDeltas, checkEntry, type Posting, reversal, samePostings } from './rules.ts'

/**
 * The double-entry ledger. post() is the ONE write path for money: every
 * movement (deposit, confirmation, order hold, fee, correction) is an entry
 * posted through it, inside the caller's transaction, so the caller's own
 * rows (a wallet transaction, an order) commit or roll back with the money.
 *
 * Invariants, kept by post() alone:
 * 1. Every entry balances to zero per currency (rules.checkEntry).
 * 2. Every balance row equals the sum of its account's postings in that
 *    currency: postings and balance changes are written in one transaction.
 * 3. A wallet account (user_wallet, pending, held, sub_account) never goes below zero:
 *    the guarded UPDATE refuses, and account_balances' CHECK backs it.
 * 4. Entries and postings are never changed or deleted (a trigger refuses);
 *    a correction is a new entry, reverse().
 * 5. One idempotency key, one entry per tenant.
 *
 * Lock order: balance rows are locked in rules.lockOrder (account, then
 * currency) by every post(), so concurrent entries over the same accounts
 * queue instead of deadlocking. A caller that posts twice in one transaction
 * breaks that global order between the two entries: put all the legs of one
 * business operation into one entry instead.
 */

export type Db = Kysely<DB>

export interface EntryInput {
  tenantId: string
  /** What the entry is for: `deposit`, `deposit_confirmed`, `transfer`, … (lower snake case). */
  kind: string
  /**
   * Unique per tenant. Derive it from the business operation
   * (`deposit:<uuid>:confirmed`), so a retry posts nothing new.
   */
  idempotencyKey: string
  postings: readonly Posting[]
}

export interface PostedEntry {
  id: string
  tenantId: string
  kind: string
  idempotencyKey: string
  reversesEntryId: string | null
  postings: Posting[]
  createdAt: Date
  /** True when the key had been posted already and this is that first entry. */
  replayed: boolean
}

const toPosted = (
  tenantId: string,
  row: repo.EntryRow,
  postings: Posting[],
  replayed: boolean,
): PostedEntry => ({
  id: row.id,
  tenantId,
  kind: row.kind,
  idempotencyKey: row.idempotency_key,
  reversesEntryId: row.reverses_entry_id,
  postings,
  createdAt: row.created_at,
  replayed,
})

/**
 * Posts an entry: the entry row, its postings and the balance changes, in
 * `trx`. Same key and same postings again → the first entry (`replayed`);
 * same key, other postings or kind → IDEMPOTENCY_CONFLICT.
 * On a LedgerError nothing of the entry was written; the statement refused it
 * (repository.writeEntry), so the caller's transaction must roll back, or
 * back to a savepoint, before it can go on.
 * @throws LedgerError EMPTY_ENTRY, ZERO_POSTING, UNBALANCED, ACCOUNT_NOT_FOUND,
 *   INSUFFICIENT_FUNDS, IDEMPOTENCY_CONFLICT
 */
export function post(
  trx: Transaction<DB>,
  entry: EntryInput,
  /** The caller's rows, written by the entry's statement (repository.writeEntry). */
  along: readonly Write[] = [],
): Promise<PostedEntry> {
  return write(trx, entry, null, along)
}

/**
 * post() as a statement of its own, outside any transaction: the entry and the
 * rows riding along commit together or not at all (money-command.ts sends a
 * command so when that statement is all its transaction would be).
 * @throws LedgerError as post() does but IDEMPOTENCY_CONFLICT; PostedBefore
 *   when the key was posted before (nothing was written: replay it in a transaction)
 */
export function postWithoutTransaction(
  db: Db,
  entry: EntryInput,
  along: readonly Write[],
): Promise<PostedEntry> {
  return write(db, entry, null, along, true)
}

/**
 * Posts the entry that undoes `entryId`: its postings negated, kind
 * `reversal`. It can meet INSUFFICIENT_FUNDS like any entry (the money may be
 * spent already). An entry is reversed at most once.
 * @throws LedgerError ENTRY_NOT_FOUND, ALREADY_REVERSED, INSUFFICIENT_FUNDS, IDEMPOTENCY_CONFLICT
 */
export async function reverse(
  trx: Transaction<DB>,
  request: { tenantId: string; entryId: string; idempotencyKey: string },
  /** The caller's rows, written by the entry's statement, as post()'s. */
  along: readonly Write[] = [],
): Promise<PostedEntry> {
  const original = await repo.findEntry(trx, request.tenantId, request.entryId)
  if (!original) throw new LedgerError({ kind: 'ENTRY_NOT_FOUND', entryId: request.entryId })
  const postings = reversal(await repo.findPostings(trx, original.id))
  const entry = {
    tenantId: request.tenantId,
    kind: 'reversal',
    idempotencyKey: request.idempotencyKey,
    postings,
  }
  // A replay of this very reversal is answered by write(); any other key is refused.
  const replay = await repo.findEntryByKey(trx, request.tenantId, request.idempotencyKey)
  if (!replay) {
    const reversedBy = await repo.findReversalOf(trx, request.tenantId, original.id)
    if (reversedBy) throw new LedgerError({ kind: 'ALREADY_REVERSED', entryId: original.id })
  }
  try {
    return await write(trx, entry, original.id, along)
  } catch (error) {
    // Two reversals racing with different keys: the unique index decides.
    if (isUniqueViolation(error, 'journal_entries_reversed_once')) {
      throw new LedgerError({ kind: 'ALREADY_REVERSED', entryId: original.id })
    }
    throw error
  }
}

async function write(
  db: Db | Transaction<DB>,
  entry: EntryInput,
  reverses: string | null,
  along: readonly Write[],
  alone = false,
): Promise<PostedEntry> {
  const fault = checkEntry(entry.postings)
  if (fault) throw new LedgerError(fault)

  let written: repo.EntryRow | undefined
  try {
    written = await repo.writeEntry(
      db,
      {
        id: uuidv7(),
        tenantId: entry.tenantId,
        kind: entry.kind,
        idempotencyKey: entry.idempotencyKey,
        reverses,
        postings: entry.postings,
        // In lock order (balanceDeltas sorts): see the note at the top.
        deltas: balanceDeltas(entry.postings),
        bookedAt: bookingTime(),
      },
      along,
      alone,
    )
  } catch (error) {
    // The statement refused the entry and wrote nothing (repository.writeEntry).
    throw repo.refusal(error) ?? error
  }
  if (!written) return replay(db, entry, reverses)
  return toPosted(entry.tenantId, written, [...entry.postings], false)
}

/** The key was used: the first entry if this is the same request again, else a conflict. */
async function replay(
  trx: Db | Transaction<DB>,
  entry: EntryInput,
  reverses: string | null,
): Promise<PostedEntry> {
  const first = await repo.findEntryByKey(trx, entry.tenantId, entry.idempotencyKey)
  // Unreachable: the insert met this key's row, and rows are never deleted.
  if (!first) throw new Error(`entry with key ${entry.idempotencyKey} vanished`)
  const postings = await repo.findPostings(trx, first.id)
  const same =
    first.kind === entry.kind &&
    first.reverses_entry_id === reverses &&
    samePostings(postings, entry.postings)
  if (!same) throw new LedgerError({ kind: 'IDEMPOTENCY_CONFLICT', entryId: first.id })
  return toPosted(entry.tenantId, first, postings, true)
}

// ---------------------------------------------------------------------------
// Accounts

export interface WalletAccounts {
  /** Available: what the owner can spend now. */
  user_wallet: string
  /** Incoming, not yet confirmed (a deposit waiting for confirmations). */
  pending: string
  /** Reserved for an accepted order until it completes or is cancelled. */
  held: string
}

/** Opens a new wallet's three accounts; call in the transaction that creates the wallet. */
export async function openWalletAccounts(
  trx: Transaction<DB>,
  tenantId: string,
  walletId: string,
): Promise<WalletAccounts> {
  const accounts: WalletAccounts = { user_wallet: uuidv7(), pending: uuidv7(), held: uuidv7() }
  await repo.insertAccounts(
    trx,
    (Object.keys(accounts) as (keyof WalletAccounts)[]).map((kind) => ({
      id: accounts[kind],
      tenantId,
      kind,
      walletId,
    })),
  )
  return accounts
}

/**
 * Opens a sub-account of the wallet: the ledger account of a fiat account
 * (the cards' money). It belongs to the wallet but is not part of its
 * balances, and never goes below zero. Call in the transaction that creates
 * the row it serves.
 */
export async function openSubAccount(
  trx: Transaction<DB>,
  tenantId: string,
  walletId: string,
): Promise<string> {
  const id = uuidv7()
  await repo.insertAccounts(trx, [{ id, tenantId, kind: 'sub_account', walletId }])
  return id
}

/** The wallet's own accounts (not its sub-accounts), or undefined when the tenant has no such wallet. */
export async function walletAccounts(
  db: Db | Transaction<DB>,
  tenantId: string,
  walletId: string,
): Promise<WalletAccounts | undefined> {
  const rows = await repo.findWalletAccounts(db, tenantId, walletId)
  if (rows.length === 0) return undefined
  return Object.fromEntries(rows.map((row) => [row.kind, row.id])) as unknown as WalletAccounts
}

export type SystemAccountKind = Extract<LedgerAccountKind, 'external' | 'fees' | 'treasury'>

/** The tenant's system account of this kind, opened on first use. */
export async function systemAccount(
  db: Db | Transaction<DB>,
  tenantId: string,
  kind: SystemAccountKind,
): Promise<string> {
  return (await systemAccounts(db, tenantId, [kind]))[kind]
}

/**
 * The tenant's system accounts of these kinds, in one read; the ones the
 * tenant has never used are opened first.
 */
export async function systemAccounts<K extends SystemAccountKind>(
  db: Db | Transaction<DB>,
  tenantId: string,
  kinds: readonly K[],
): Promise<Record<K, string>> {
  let rows = await repo.findSystemAccounts(db, tenantId, kinds)
  if (rows.length < kinds.length) {
    for (const kind of kinds) {
      if (!rows.some((row) => row.kind === kind)) {
        await repo.insertSystemAccountIfMissing(db, { id: uuidv7(), tenantId, kind })
      }
    }
    rows = await repo.findSystemAccounts(db, tenantId, kinds)
  }
  const ids = Object.fromEntries(rows.map((row) => [row.kind, row.id])) as Record<K, string>
  const missing = kinds.find((kind) => !ids[kind])
  if (missing) throw new Error(`system account ${missing} of tenant ${tenantId} was not created`)
  return ids
}

// ---------------------------------------------------------------------------
// Reading balances

/**
 * An account's balance in one currency, minor units (0 before anything was
 * posted to it). With `lock` the balance row stays locked until `trx` ends, so
 * no entry lands on or leaves the account between this read and the caller's
 * own post() (a card closing pays out all of it). A missing row locks
 * nothing: the balance is 0 and a concurrent first credit is not held back.
 */
export function balanceOf(
  db: Db | Transaction<DB>,
  account: string,
  currency: string,
  options: { lock?: boolean } = {},
): Promise<bigint> {
  return repo.balanceOf(db, account, currency, options)
}

export interface WalletBalance {
  currency: string
  /** The user_wallet account's balance. */
  available: bigint
  /** The pending and held accounts' balances together: money not spendable yet. */
  pending: bigint
}

/**
 * Balances per wallet and currency, for every currency any of the wallet's
 * accounts has ever held (a balance row exists once a currency was posted).
 */
export async function walletBalances(
  db: Db | Transaction<DB>,
  tenantId: string,
  walletIds: readonly string[],
): Promise<Map<string, WalletBalance[]>> {
  const byWallet = new Map<string, Map<string, WalletBalance>>()
  if (walletIds.length === 0) return new Map()
  for (const row of await repo.findWalletBalances(db, tenantId, walletIds)) {
    if (!row.wallet_id) continue
    const currencies = byWallet.get(row.wallet_id) ?? new Map<string, WalletBalance>()
    byWallet.set(row.wallet_id, currencies)
    const balance = currencies.get(row.currency_uuid) ?? {
      currency: row.currency_uuid,
      available: 0n,
      pending: 0n,
    }
    currencies.set(row.currency_uuid, balance)
    const amount = BigInt(row.balance_minor)
    if (row.kind === 'user_wallet') balance.available += amount
    else balance.pending += amount
  }
  return new Map([...byWallet].map(([wallet, currencies]) => [wallet, [...currencies.values()]]))
}
