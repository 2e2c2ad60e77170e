/** An order's facts as the pure rules take them: a 100.00 payment with two fees, to a target. */
import type { OrderTarget, OrderType } from '../../../contract/orders.ts'
import type { OrderFacts } from './record-rules.ts'

export const target = (overrides: Partial<OrderTarget> = {}): OrderTarget => ({
  kind: 'address',
  wallet_uuid: null,
  counterparty_account_id: null,
  counterparty_destination_id: null,
  destination_type: null,
  fiat_account_id: null,
  chain: null,
  address: null,
  display: '',
  ...overrides,
})

export const facts = (orderType: OrderType, overrides: Partial<OrderFacts> = {}): OrderFacts => ({
  orderType,
  target: target(),
  amountFrom: 10_000n,
  amountTo: 10_000n,
  total: 10_150n,
  fees: [
    { kind: 'FIXED', amount: 100n },
    { kind: 'PERCENT', amount: 50n },
  ],
  ...overrides,
})
