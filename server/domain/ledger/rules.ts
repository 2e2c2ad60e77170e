/**
 * Posting math: pure values, no IO. An entry is a list of signed legs; money
 * leaves an account as a negative amount and arrives as a positive one.
 *
 * Invariants an entry must keep before it reaches the database:
 * - it has at least two legs, and no leg is zero;
 * - per currency, its legs sum to exactly zero (money is neither made nor lost);
 * - amounts are bigint minor units (contract/money.ts), never a float.
 */

export interface Posting {
  /** ledger_accounts.id */
  account: string
  /** currencies.uuid */
  currency: string
  /** Minor units; negative leaves the account, positive arrives. Never zero. */
  amount: bigint
}

/** The net change one entry makes to one account's balance in one currency. */
export interface BalanceDelta {
  account: string
  currency: string
  delta: bigint
}

export type EntryFault =
  | { kind: 'EMPTY_ENTRY' }
  | { kind: 'ZERO_POSTING'; index: number }
  | { kind: 'UNBALANCED'; currency: string; sum: bigint }

/** Why an entry cannot be posted as it is, or undefined when it can. */
export function checkEntry(postings: readonly Posting[]): EntryFault | undefined {
  if (postings.length < 2) return { kind: 'EMPTY_ENTRY' }
  const index = postings.findIndex((posting) => posting.amount === 0n)
  if (index >= 0) return { kind: 'ZERO_POSTING', index }
  const sums = new Map<string, bigint>()
  for (const { currency, amount } of postings)
    sums.set(currency, (sums.get(currency) ?? 0n) + amount)
  for (const [currency, sum] of sums) if (sum !== 0n) return { kind: 'UNBALANCED', currency, sum }
  return undefined
}

/** Moves `amount` from one account to another: the two legs of the simplest entry. */
export function transfer(from: string, to: string, currency: string, amount: bigint): Posting[] {
  return [
    { account: from, currency, amount: -amount },
    { account: to, currency, amount },
  ]
}

/** The entry that undoes another: the same legs, negated. */
export function reversal(postings: readonly Posting[]): Posting[] {
  return postings.map((posting) => ({ ...posting, amount: -posting.amount }))
}

/**
 * The global order in which balance rows are locked: by account, then
 * currency. Every writer takes its locks in this one order, so two entries
 * touching the same accounts wait for each other instead of deadlocking.
 */
export function lockOrder(a: { account: string; currency: string }, b: typeof a): number {
  if (a.account !== b.account) return a.account < b.account ? -1 : 1
  return a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0
}

/**
 * What the entry does to each balance, netted per account and currency and in
 * lock order. Legs of one account net out: an entry is atomic, so a
 * self-transfer changes nothing and is judged by its (zero) net effect, never
 * by a leg on its own. Zero nets are left out: they touch no balance.
 */
export function balanceDeltas(postings: readonly Posting[]): BalanceDelta[] {
  const nets = new Map<string, BalanceDelta>()
  for (const { account, currency, amount } of postings) {
    const key = `${account}|${currency}`
    const net = nets.get(key)
    if (net) net.delta += amount
    else nets.set(key, { account, currency, delta: amount })
  }
  return [...nets.values()].filter((net) => net.delta !== 0n).sort(lockOrder)
}

/**
 * Whether two lists hold the same legs, whatever their order: the test an
 * idempotent replay must pass (same key, same postings → the first entry).
 */
export function samePostings(a: readonly Posting[], b: readonly Posting[]): boolean {
  if (a.length !== b.length) return false
  const canonical = (postings: readonly Posting[]) =>
    postings.map((p) => `${p.account}|${p.currency}|${p.amount}`).sort()
  const left = canonical(a)
  const right = canonical(b)
  return left.every((leg, index) => leg === right[index])
}
