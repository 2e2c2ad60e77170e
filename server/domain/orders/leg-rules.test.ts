import { describe, expect, it } from 'vitest'
import { checkEntry } from '../ledger/rules.ts'
import { holdLegs, receiveLegs, releaseLegs, settleLegs } from './leg-rules.ts'
import { facts } from './order-facts-fixtures.ts'

describe('the ledger legs of each step', () => {
  const wallet = { user_wallet: 'uw', held: 'h' }

  it('hold and release are each other’s mirror', () => {
    expect(holdLegs(wallet, 'EUR', 5n)).toEqual([
      { account: 'uw', currency: 'EUR', amount: -5n },
      { account: 'h', currency: 'EUR', amount: 5n },
    ])
    expect(releaseLegs(wallet, 'EUR', 5n)).toEqual([
      { account: 'h', currency: 'EUR', amount: -5n },
      { account: 'uw', currency: 'EUR', amount: 5n },
    ])
  })

  it('a settlement empties exactly the held total, per currency balanced', () => {
    const order = facts('WITHDRAWAL_FIAT_SEPA')
    const legs = settleLegs({ held: 'h', fees: 'f', destination: 'x' }, 'EUR', 'EUR', order)
    expect(checkEntry(legs)).toBeUndefined()
    expect(
      legs.filter((leg) => leg.account === 'h').reduce((sum, leg) => sum + leg.amount, 0n),
    ).toBe(-order.total)
    expect(
      legs.filter((leg) => leg.account === 'f').reduce((sum, leg) => sum + leg.amount, 0n),
    ).toBe(150n)
    expect(legs.find((leg) => leg.account === 'x')?.amount).toBe(10_000n)
  })

  it('a conversion goes through the treasury in both currencies', () => {
    const order = facts('EXCHANGE_CRYPTO_INTERNAL', {
      amountTo: 920n,
      total: 10_010n,
      fees: [{ kind: 'PERCENT', amount: 10n }],
    })
    const legs = settleLegs(
      { held: 'h', fees: 'f', destination: 'tw', treasury: 't' },
      'USDT',
      'EUR',
      order,
    )
    expect(checkEntry(legs)).toBeUndefined()
    expect(legs).toEqual([
      { account: 'h', currency: 'USDT', amount: -10_000n },
      { account: 't', currency: 'USDT', amount: 10_000n },
      { account: 't', currency: 'EUR', amount: -920n },
      { account: 'tw', currency: 'EUR', amount: 920n },
      { account: 'h', currency: 'USDT', amount: -10n },
      { account: 'f', currency: 'USDT', amount: 10n },
    ])
    expect(() =>
      settleLegs({ held: 'h', fees: 'f', destination: 'tw' }, 'USDT', 'EUR', order),
    ).toThrow()
  })

  it('a deposit’s transfer brings to.amount and the fees from outside; zero fees write no leg', () => {
    const legs = receiveLegs({ external: 'e', user_wallet: 'uw', fees: 'f' }, 'USD', {
      amountTo: 100_000n,
      fees: [
        { kind: 'FIXED', amount: 1_000n },
        { kind: 'PERCENT', amount: 0n },
      ],
    })
    expect(checkEntry(legs)).toBeUndefined()
    expect(legs).toEqual([
      { account: 'e', currency: 'USD', amount: -100_000n },
      { account: 'uw', currency: 'USD', amount: 100_000n },
      { account: 'e', currency: 'USD', amount: -1_000n },
      { account: 'f', currency: 'USD', amount: 1_000n },
    ])
  })
})
