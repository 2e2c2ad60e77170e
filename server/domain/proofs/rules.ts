import {
  addSums,
  formatSums,
  leafHash,
  nodeHash,
  type Sums,
  zeroSums,
} from '../../../contract/balance-proof.ts'
import { fromMinor } from '../../../contract/money.ts'
import type { ReserveLine, SnapshotBalance } from '../../../contract/proofs.ts'
import type { WalletType } from '../../../contract/wallets.ts'
import { accountLast4 } from '../fiat-accounts/rules.ts'

/*
 * The proof of balances' pure half on the server: whose balances make up a
 * snapshot, the tree over them, a person's path, and the reserves' cover. The
 * encoding itself (leaf, node, sums, root message) is contract/balance-proof.ts,
 * shared with the app's verifier.
 */

/**
 * The ledger accounts whose balances the platform owes a person: a wallet's
 * available money (`user_wallet`), what an accepted order holds (`held`, the
 * person's until the order completes) and the fiat accounts' money with their
 * card holds (`sub_account`). A wallet's `pending` account — a deposit not yet
 * confirmed — is owed to nobody yet: a snapshot waits until it is empty.
 */
export const LIABILITY_KINDS = ['user_wallet', 'held', 'sub_account'] as const
export type PersonAccountKind = (typeof LIABILITY_KINDS)[number] | 'pending'

/** One balance row of a person's account, as the snapshot read it. */
export interface BalanceRow {
  userId: string
  kind: PersonAccountKind
  walletId: string
  walletType: WalletType
  /** The fiat account whose money (or card holds) the sub-account is; null for the wallet's own. */
  fiatAccount: { id: string; programName: string } | null
  code: string
  amount: bigint
}

export interface Currency {
  code: string
  decimals: number
}

export interface Person {
  userId: string
  sums: Sums
  balances: SnapshotBalance[]
}

/** A wallet's or fiat account's part of one currency, in minor units while it is gathered. */
type Gathered = Omit<SnapshotBalance['parts'][number], 'amount'> & { minor: bigint }

/**
 * Every person's sums (every code of the catalogue, zeros included) and what
 * they are made of, or how many people's balances are not settled (pending
 * money, a balance below zero): then there is nothing to publish.
 */
export function peopleOf(input: {
  users: readonly string[]
  rows: readonly BalanceRow[]
  currencies: readonly Currency[]
}): { people: Person[]; pending: number; negative: number } {
  const decimals = new Map(input.currencies.map((currency) => [currency.code, currency.decimals]))
  const codes = zeroSums([...decimals.keys()]).map(([code]) => code)
  const pending = new Set<string>()
  const negative = new Set<string>()
  const held = new Map<string, Map<string, Map<string, Gathered>>>()
  for (const row of input.rows) {
    if (row.amount === 0n) continue
    if (row.kind === 'pending') {
      pending.add(row.userId)
      continue
    }
    if (row.amount < 0n) negative.add(row.userId)
    const places = decimals.get(row.code)
    if (places === undefined) throw new Error(`currency ${row.code} is not in the catalogue`)
    const byCode = held.get(row.userId) ?? new Map<string, Map<string, Gathered>>()
    held.set(row.userId, byCode)
    const parts = byCode.get(row.code) ?? new Map<string, Gathered>()
    byCode.set(row.code, parts)
    const source = row.fiatAccount ? 'fiat_account' : 'wallet'
    const id = row.fiatAccount?.id ?? row.walletId
    const part = parts.get(`${source}:${id}`) ?? {
      source,
      id,
      wallet_type: row.fiatAccount ? null : row.walletType,
      program_name: row.fiatAccount?.programName ?? null,
      account_last4: row.fiatAccount ? accountLast4(row.fiatAccount.id) : null,
      minor: 0n,
    }
    part.minor += row.amount
    parts.set(`${source}:${id}`, part)
  }
  const people = input.users.map((userId): Person => {
    const byCode = held.get(userId) ?? new Map()
    const balances: SnapshotBalance[] = []
    const sums = codes.map((code) => {
      const parts = [...(byCode.get(code)?.values() ?? [])]
        .filter((part) => part.minor !== 0n)
        .sort((a, b) => a.source.localeCompare(b.source) || a.id.localeCompare(b.id))
      const total = parts.reduce((sum, part) => sum + part.minor, 0n)
      if (total !== 0n) {
        const places = decimals.get(code)!
        balances.push({
          currency: code,
          amount: fromMinor(total, places),
          parts: parts.map(({ minor, ...part }) => ({ ...part, amount: fromMinor(minor, places) })),
        })
      }
      return [code, total] as const
    })
    return { userId, sums, balances }
  })
  return { people, pending: pending.size, negative: negative.size }
}

export interface TreeNode {
  hash: string
  sums: Sums
}

export interface Tree {
  /** levels[0]: the leaves in position order; the last level: the root alone. */
  levels: TreeNode[][]
  /** Each person's leaf: where it sits and its nonce. */
  leaves: { userId: string; position: number; nonce: string }[]
}

/** Random bytes: node:crypto's in the service, a seeded stream in tests. */
export type RandomBytes = (count: number) => Uint8Array

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/**
 * The Merkle-sum tree of a snapshot: one leaf per person with a fresh 32-byte
 * nonce, padded with zero leaves (random nonce, every code at zero) to a
 * power of two, all shuffled so a leaf's place says nothing of who it is or
 * when they joined; then each node over its two children (docs/api.md).
 */
export function buildTree(input: {
  tenantId: string
  snapshotId: string
  codes: readonly string[]
  people: readonly { userId: string; sums: Sums }[]
  random: RandomBytes
}): Tree {
  const { tenantId, snapshotId, random } = input
  let size = 1
  while (size < input.people.length) size *= 2
  const zero = zeroSums(input.codes)
  const leaves: { userId: string | null; sums: Sums; nonce: string }[] = [
    ...input.people.map((person) => ({ ...person, nonce: hex(random(32)) })),
    ...Array.from({ length: size - input.people.length }, () => ({
      userId: null,
      sums: zero,
      nonce: hex(random(32)),
    })),
  ]
  shuffle(leaves, random)
  const levels: TreeNode[][] = [
    leaves.map((leaf) => ({
      hash: leafHash(tenantId, snapshotId, leaf.nonce, formatSums(leaf.sums)),
      sums: leaf.sums,
    })),
  ]
  for (let level = levels[0]!; level.length > 1; level = levels.at(-1)!) {
    const parents: TreeNode[] = []
    for (let index = 0; index < level.length; index += 2) {
      const left = level[index]!
      const right = level[index + 1]!
      const sums = addSums(left.sums, right.sums)
      if (!sums) throw new Error('two nodes of one snapshot name different currencies')
      parents.push({ hash: nodeHash(text(left), text(right)), sums })
    }
    levels.push(parents)
  }
  return {
    levels,
    leaves: leaves.flatMap((leaf, position) =>
      leaf.userId === null ? [] : [{ userId: leaf.userId, position, nonce: leaf.nonce }],
    ),
  }
}

const text = (node: TreeNode) => ({ hash: node.hash, sums: formatSums(node.sums) })

/** Fisher–Yates with unbiased draws from `random`. */
function shuffle<T>(items: T[], random: RandomBytes): void {
  for (let index = items.length - 1; index > 0; index--) {
    const other = uniform(index + 1, random)
    ;[items[index], items[other]] = [items[other]!, items[index]!]
  }
}

/** A whole number below `bound` (≤ 2^32), every one equally likely: draws past the last full range are redrawn. */
function uniform(bound: number, random: RandomBytes): number {
  const limit = 2 ** 32 - (2 ** 32 % bound)
  for (;;) {
    const value = Buffer.from(random(4)).readUInt32BE(0)
    if (value < limit) return value % bound
  }
}

/**
 * The siblings on the way from the leaf at `position` to the root, bottom
 * first: at each level the node beside the current one, and on which side of
 * it the sibling sits.
 */
export function siblingsOf(position: number, depth: number) {
  return Array.from({ length: depth }, (_, level) => {
    const own = Math.floor(position / 2 ** level)
    return {
      level,
      position: own ^ 1,
      side: own % 2 === 0 ? ('right' as const) : ('left' as const),
    }
  })
}

/** log2 of a tree's leaf count (a power of two). */
export const depthOf = (leafCount: number) => Math.round(Math.log2(leafCount))

/**
 * Each currency's cover: the assets attested (per code, every chain's token
 * together) ÷ what people hold, to four places rounded down — a cover is
 * never shown larger than it is. Null where nobody holds any.
 */
export function reserveLines(
  assets: ReadonlyMap<string, bigint>,
  liabilities: Sums,
  currencies: readonly Currency[],
): ReserveLine[] {
  const decimals = new Map(currencies.map((currency) => [currency.code, currency.decimals]))
  return liabilities.map(([code, owed]) => {
    const held = assets.get(code) ?? 0n
    const places = decimals.get(code) ?? 0
    const ratio = owed === 0n ? null : (held * 10_000n) / owed
    return {
      currency: code,
      assets: fromMinor(held, places),
      liabilities: fromMinor(owed, places),
      ratio:
        ratio === null ? null : `${ratio / 10_000n}.${String(ratio % 10_000n).padStart(4, '0')}`,
    }
  })
}

/** The UTC day of `now`, 'YYYY-MM-DD': a tenant publishes one snapshot per day. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10)

/** The first instant of the UTC day after `now`'s. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}
