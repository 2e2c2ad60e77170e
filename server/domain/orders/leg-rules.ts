/**
 * The legs of an order's ledger entries: hold, release, settle, receive. Every step is ONE
 * entry (ledger/service.ts: lock order). Pure: no IO.
 */
import { type Posting, transfer } from '../ledger/rules.ts'
import type { OrderFacts } from './record-rules.ts'

export interface HoldAccounts {
  user_wallet: string
  held: string
}

/** Accepting an order: its total leaves what the person can spend. */
export const holdLegs = (wallet: HoldAccounts, currency: string, total: bigint): Posting[] =>
  transfer(wallet.user_wallet, wallet.held, currency, total)

/** Failing, erring or cancelling: the held total goes back. */
export const releaseLegs = (wallet: HoldAccounts, currency: string, total: bigint): Posting[] =>
  transfer(wallet.held, wallet.user_wallet, currency, total)

export interface SettleAccounts {
  /**
   * Where the total is paid from: the paying wallet's held account, or its
   * user_wallet for an order that settles as it is placed (nothing held first).
   */
  held: string
  fees: string
  /** Where the money goes: `external` (a payout or a broadcast), a wallet's user_wallet, a sub-account. */
  destination: string
  /** Conversions only: the tenant's treasury buys `from` and sells `to`. */
  treasury?: string
}

/**
 * Completing an order that held its total: the amount to its destination, the
 * fees to the fees account; a conversion (from ≠ to) goes through the
 * treasury: held FROM → treasury, treasury TO → destination.
 */
export function settleLegs(
  accounts: SettleAccounts,
  from: string,
  to: string,
  order: Pick<OrderFacts, 'amountFrom' | 'amountTo' | 'fees'>,
): Posting[] {
  const legs: Posting[] = []
  if (from === to) {
    legs.push(...transfer(accounts.held, accounts.destination, from, order.amountFrom))
  } else {
    if (!accounts.treasury) throw new Error('a conversion settles through the treasury')
    legs.push(...transfer(accounts.held, accounts.treasury, from, order.amountFrom))
    legs.push(...transfer(accounts.treasury, accounts.destination, to, order.amountTo))
  }
  for (const fee of order.fees) {
    if (fee.amount > 0n) legs.push(...transfer(accounts.held, accounts.fees, from, fee.amount))
  }
  return legs
}

/**
 * A deposit's bank transfer arriving: `to.amount` (from.amount: deposits do
 * not convert) into the wallet, the fees to the fees account, all of it from
 * outside the platform.
 */
export function receiveLegs(
  accounts: { external: string; user_wallet: string; fees: string },
  currency: string,
  order: Pick<OrderFacts, 'amountTo' | 'fees'>,
): Posting[] {
  const legs = transfer(accounts.external, accounts.user_wallet, currency, order.amountTo)
  for (const fee of order.fees) {
    if (fee.amount > 0n)
      legs.push(...transfer(accounts.external, accounts.fees, currency, fee.amount))
  }
  return legs
}
