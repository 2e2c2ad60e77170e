import { describe, expect, it } from 'vitest'
import { ORDER_TYPES } from '../../../contract/orders.ts'
import { facts, target } from './order-facts-fixtures.ts'
import { type OrderFacts, recordPlan } from './record-rules.ts'

describe('the records an order writes', () => {
  const lines = (order: OrderFacts) =>
    recordPlan(order).map((line) => [
      line.wallet,
      line.type,
      line.method,
      line.recordType,
      line.currency,
      line.amount,
      line.when,
    ])

  it('every order type has a plan whose payer lines sum to what leaves (or arrives in) the wallet', () => {
    for (const orderType of ORDER_TYPES) {
      const order = facts(orderType, {
        target: target({ wallet_uuid: orderType.startsWith('DEPOSIT') ? 'w' : null }),
      })
      const plan = recordPlan(order)
      const payer = plan.filter((line) => line.wallet === 'source')
      const signed = payer.reduce(
        (sum, line) => sum + (line.type === 'deposit' ? line.amount : -line.amount),
        0n,
      )
      // A withdrawal takes the total; a deposit brings the total, less the fees: to.amount.
      expect(signed).toBe(orderType.startsWith('DEPOSIT') ? order.amountTo : -order.total)
      expect(plan.every((line) => line.amount > 0n)).toBe(true)
    }
  })

  it.each([
    [
      'DEPOSIT_FIAT_SEPA',
      facts('DEPOSIT_FIAT_SEPA', { fees: [{ kind: 'FIXED', amount: 150n }] }),
      [
        ['source', 'deposit', 'bank_transfer', 'DEPOSIT', 'from', 10_150n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 150n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_FIAT_SEPA',
      facts('WITHDRAWAL_FIAT_SEPA'),
      [
        ['source', 'withdrawal', 'bank_transfer', 'WITHDRAWAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 100n, 'placed'],
        ['source', 'withdrawal', 'bank_transfer', 'FEE', 'from', 50n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_CRYPTO to an address',
      facts('WITHDRAWAL_CRYPTO', {
        total: 10_070n,
        fees: [
          { kind: 'PERCENT', amount: 0n },
          { kind: 'NETWORK', amount: 70n },
        ],
      }),
      [
        ['source', 'withdrawal', 'crypto', 'WITHDRAWAL_CRYPTO_EXTERNAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'crypto', 'NETWORK_FEE', 'from', 70n, 'placed'],
      ],
    ],
    [
      'WITHDRAWAL_CRYPTO to a wallet',
      facts('WITHDRAWAL_CRYPTO', {
        target: target({ wallet_uuid: 'w2' }),
        total: 10_000n,
        fees: [],
      }),
      [
        ['source', 'withdrawal', 'crypto', 'WITHDRAWAL_CRYPTO_INTERNAL', 'from', 10_000n, 'placed'],
        ['target', 'deposit', 'crypto', 'DEPOSIT_CRYPTO_INTERNAL', 'to', 10_000n, 'completed'],
      ],
    ],
    [
      'EXCHANGE_CRYPTO_INTERNAL',
      facts('EXCHANGE_CRYPTO_INTERNAL', {
        amountTo: 920n,
        total: 10_010n,
        fees: [{ kind: 'PERCENT', amount: 10n }],
      }),
      [
        ['source', 'withdrawal', 'exchange', 'EXCHANGE_CRYPTO_INTERNAL', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'exchange', 'FEE', 'from', 10n, 'placed'],
        ['target', 'deposit', 'exchange', 'EXCHANGE_CRYPTO_INTERNAL', 'to', 920n, 'placed'],
      ],
    ],
    [
      'TRANSFER_CARD_PREPAID',
      facts('TRANSFER_CARD_PREPAID', { total: 10_100n, fees: [{ kind: 'PERCENT', amount: 100n }] }),
      [
        ['source', 'withdrawal', 'p2p', 'CARD_PROVIDER_DEPOSIT', 'from', 10_000n, 'placed'],
        ['source', 'withdrawal', 'p2p', 'FEE', 'from', 100n, 'placed'],
      ],
    ],
    [
      'TRANSFER_CARD_WHOLESALE',
      facts('TRANSFER_CARD_WHOLESALE', { amountTo: 9_200n, total: 10_000n, fees: [] }),
      [['source', 'withdrawal', 'exchange', 'WHOLESALE_CARD_DEPOSIT', 'from', 10_000n, 'placed']],
    ],
  ] as const)('%s', (_name, order, expected) => {
    expect(lines(order)).toEqual(expected)
  })

  it('a chain withdrawal names its address on the main line', () => {
    const plan = recordPlan(
      facts('WITHDRAWAL_CRYPTO', { target: target({ chain: 'tron', address: 'TAddr' }) }),
    )
    expect(plan.map((line) => line.address)).toEqual(['TAddr', null, null])
  })
})
