import type { CardTransaction } from '../../../contract/card-transactions.ts'

/*
 * A card's transactions as people read them: an authorisation and the
 * clearing or reversal that ends it (same `authorization_id`) are ONE
 * purchase, with its refunds under it. Fees, deposits, withdrawals and
 * original credits stand on their own.
 */

export type PurchaseState = 'pending' | 'completed' | 'reversed' | 'declined'

export interface Purchase {
  kind: 'purchase'
  /** The authorisation's id: stable while more pages load. */
  key: string
  /** Undefined while the page holding it is not loaded yet (newest first: it comes later). */
  authorization: CardTransaction | undefined
  clearing: CardTransaction | undefined
  reversal: CardTransaction | undefined
  refunds: CardTransaction[]
  state: PurchaseState
  /**
   * The headline: what was taken once the purchase cleared, else what the
   * authorisation holds (or what is known of it).
   */
  amount: string
  /** The authorised amount, only when the cleared one differs from it. */
  authorizedAmount: string | undefined
  currency: string
  merchant: CardTransaction['merchant']
  /** The latest record's time: where the row sits in a newest-first list. */
  at: string
}

export interface Movement {
  kind: 'movement'
  key: string
  transaction: CardTransaction
  at: string
}

export type ActivityRow = Purchase | Movement

const FOLLOWS_AUTHORIZATION = new Set(['CLEARING', 'REVERSAL', 'REFUND'])

function purchaseState(purchase: Omit<Purchase, 'state'>): PurchaseState {
  // The ending record is the newest word on the purchase; the authorisation's
  // status may come from an older page read before the ending happened.
  if (purchase.reversal) return 'reversed'
  if (purchase.clearing) return 'completed'
  switch (purchase.authorization?.status) {
    case 'DECLINED':
      return 'declined'
    case 'REVERSED':
      return 'reversed'
    case 'SETTLED':
      return 'completed'
    default:
      return 'pending'
  }
}

/**
 * Groups newest-first records into rows, newest first. A row sits where its
 * latest record sits, so rows already on screen keep their place when an
 * older page brings the authorisation they follow. Records seen twice (a
 * page shifted by a new transaction) count once.
 */
export function groupCardActivity(records: readonly CardTransaction[]): ActivityRow[] {
  const seen = new Set<string>()
  const groups = new Map<string, CardTransaction[]>()
  const rows: (Movement | { kind: 'group'; key: string })[] = []

  for (const record of records) {
    if (seen.has(record.id)) continue
    seen.add(record.id)
    const groupKey =
      record.type === 'AUTHORIZATION'
        ? record.id
        : FOLLOWS_AUTHORIZATION.has(record.type)
          ? record.authorization_id
          : null
    if (groupKey === null) {
      rows.push({ kind: 'movement', key: record.id, transaction: record, at: record.created_at })
      continue
    }
    const group = groups.get(groupKey)
    if (group) group.push(record)
    else {
      groups.set(groupKey, [record])
      rows.push({ kind: 'group', key: groupKey })
    }
  }

  const grouped = rows.map((row): ActivityRow => {
    if (row.kind === 'movement') return row
    return toPurchase(row.key, groups.get(row.key) ?? [])
  })
  return grouped.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
}

function toPurchase(key: string, records: CardTransaction[]): Purchase {
  const authorization = records.find((record) => record.type === 'AUTHORIZATION')
  const clearing = records.find((record) => record.type === 'CLEARING')
  const reversal = records.find((record) => record.type === 'REVERSAL')
  const refunds = records
    .filter((record) => record.type === 'REFUND')
    .sort((a, b) => (a.created_at < b.created_at ? -1 : 1))
  const first = authorization ?? clearing ?? reversal ?? records[0]!
  // A hotel holds 100.00 and takes 80.00: the money spent is the 80.00.
  const amount = clearing?.amount ?? authorization?.amount ?? reversal?.amount ?? first.amount
  const authorizedAmount =
    clearing && authorization && !sameAmount(clearing.amount, authorization.amount)
      ? authorization.amount
      : undefined
  const at = records.reduce(
    (latest, record) => (record.created_at > latest ? record.created_at : latest),
    first.created_at,
  )
  const merchant = records.find((record) => record.merchant)?.merchant ?? null
  const base = {
    kind: 'purchase' as const,
    key,
    authorization,
    clearing,
    reversal,
    refunds,
    amount,
    authorizedAmount,
    currency: first.currency,
    merchant,
    at,
  }
  return { ...base, state: purchaseState(base) }
}

/** "10.5" and "10.50" are the same money. */
function sameAmount(a: string, b: string): boolean {
  const normal = (value: string) => {
    const [whole = '0', fraction = ''] = value.split('.')
    return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.replace(/0+$/, '')}`
  }
  return normal(a) === normal(b)
}

/** Which way money went for a record on its own: into the account or out of it. */
export const isIncoming = (transaction: CardTransaction) =>
  transaction.type === 'DEPOSIT' ||
  transaction.type === 'REFUND' ||
  transaction.type === 'ORIGINAL_CREDIT' ||
  transaction.type === 'REVERSAL'
