/**
 * The wallet transaction records an order writes, so a wallet's history adds up to its
 * balance. Pure: no IO.
 */
import type { FeeKind, OrderTarget, OrderType } from '../../../contract/orders.ts'
import type { RecordType } from '../../../contract/wallets.ts'
import type { WalletTransactionsTable } from '../../infra/db/schema.ts'
import { railOf } from './rules.ts'

export interface OrderFacts {
  orderType: OrderType
  target: OrderTarget
  /** Minor units of the from currency. */
  amountFrom: bigint
  /** Minor units of the to currency. */
  amountTo: bigint
  total: bigint
  fees: readonly { kind: FeeKind; amount: bigint }[]
}

/** One wallet transaction record an order writes. */
export interface RecordLine {
  /** The paying wallet (`source`), or the wallet money lands in (`target`). */
  wallet: 'source' | 'target'
  type: WalletTransactionsTable['type']
  method: WalletTransactionsTable['method']
  recordType: RecordType
  currency: 'from' | 'to'
  /** Minor units, always positive: `type` says which way. */
  amount: bigint
  address: string | null
  /**
   * `placed`: written with the order, its status following the order's;
   * `completed`: written when the order completes (money reaching another
   * person's wallet shows up there only once it has arrived).
   */
  when: 'placed' | 'completed'
}

const MAIN: Record<
  OrderType,
  { type: RecordLine['type']; method: RecordLine['method']; recordType: RecordType }
> = {
  DEPOSIT_FIAT_SEPA: { type: 'deposit', method: 'bank_transfer', recordType: 'DEPOSIT' },
  DEPOSIT_FIAT_SWIFT: { type: 'deposit', method: 'bank_transfer', recordType: 'DEPOSIT' },
  WITHDRAWAL_FIAT_SEPA: { type: 'withdrawal', method: 'bank_transfer', recordType: 'WITHDRAWAL' },
  WITHDRAWAL_CRYPTO: {
    type: 'withdrawal',
    method: 'crypto',
    recordType: 'WITHDRAWAL_CRYPTO_EXTERNAL',
  },
  EXCHANGE_CRYPTO_INTERNAL: {
    type: 'withdrawal',
    method: 'exchange',
    recordType: 'EXCHANGE_CRYPTO_INTERNAL',
  },
  TRANSFER_CARD_PREPAID: { type: 'withdrawal', method: 'p2p', recordType: 'CARD_PROVIDER_DEPOSIT' },
  TRANSFER_CARD_SUBACCOUNT: {
    type: 'withdrawal',
    method: 'p2p',
    recordType: 'CARD_PROVIDER_DEPOSIT',
  },
  TRANSFER_CARD_WHOLESALE: {
    type: 'withdrawal',
    method: 'exchange',
    recordType: 'WHOLESALE_CARD_DEPOSIT',
  },
}

/**
 * The records of an order, so that a wallet's history adds up to its balance:
 * the payer's main line plus one line per fee (FEE, or NETWORK_FEE for the
 * network fee), all in the from currency and summing to `total`. A deposit's
 * main line is the whole transfer (`total`) and its fee lines come off it, so
 * the history nets to the `to.amount` credited. What lands in a wallet
 * (an exchange's proceeds, an internal transfer's) is a deposit line on it.
 */
export function recordPlan(order: OrderFacts): RecordLine[] {
  const rail = railOf(order.orderType, order.target)
  const main = MAIN[order.orderType]
  const address = rail === 'chain' ? order.target.address : null
  const lines: RecordLine[] = [
    {
      wallet: 'source',
      ...main,
      recordType: rail === 'wallet' ? 'WITHDRAWAL_CRYPTO_INTERNAL' : main.recordType,
      currency: 'from',
      amount: rail === 'bank_in' ? order.total : order.amountFrom,
      address,
      when: 'placed',
    },
  ]
  for (const fee of order.fees) {
    if (fee.amount <= 0n) continue
    lines.push({
      wallet: 'source',
      type: 'withdrawal',
      method: main.method,
      recordType: fee.kind === 'NETWORK' ? 'NETWORK_FEE' : 'FEE',
      currency: 'from',
      amount: fee.amount,
      address: null,
      when: 'placed',
    })
  }
  if (rail === 'exchange') {
    lines.push({
      wallet: 'target',
      type: 'deposit',
      method: 'exchange',
      recordType: 'EXCHANGE_CRYPTO_INTERNAL',
      currency: 'to',
      amount: order.amountTo,
      address: null,
      when: 'placed',
    })
  }
  if (rail === 'wallet') {
    lines.push({
      wallet: 'target',
      type: 'deposit',
      method: 'crypto',
      recordType: 'DEPOSIT_CRYPTO_INTERNAL',
      currency: 'to',
      amount: order.amountTo,
      address: null,
      when: 'completed',
    })
  }
  return lines
}
