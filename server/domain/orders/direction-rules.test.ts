import { describe, expect, it } from 'vitest'
import { ORDER_TYPES } from '../../../contract/orders.ts'
import { exchangeDirections } from './direction-rules.ts'
import { exchangeRate, PAR } from './pricing.ts'
import { BTC, EUR, GBP, TRX, USD, USDC_ETH, USDT_TRON } from './pricing-fixtures.ts'

describe('the directions list', () => {
  const catalogue = [BTC, TRX, USDT_TRON, USDC_ETH, EUR, USD, GBP]
  const prices = new Map([
    ['BTC', '97342.18'],
    ['TRX', '0.2453'],
    ['USDT', '1.00'],
    ['USDC', '0.9999'],
    ['EUR', '1.0834'],
    ['USD', '1.00'],
    ['GBP', '1.2719'],
  ])
  const networkFees = new Map([
    [BTC.uuid, 2_000n],
    [TRX.uuid, 1_000_000n],
    [USDT_TRON.uuid, 3_679_500n],
    [USDC_ETH.uuid, 4_095_072n],
  ])
  const asOf = new Date('2026-01-01T12:00:00Z')
  const programs = [
    { currency_uuid: EUR.uuid, sub_account_type: 'prepaid' as const, fee_top_up_percent: '1.000' },
    { currency_uuid: EUR.uuid, sub_account_type: 'prepaid' as const, fee_top_up_percent: '0.500' },
    { currency_uuid: EUR.uuid, sub_account_type: 'balance' as const, fee_top_up_percent: '0.000' },
    { currency_uuid: USD.uuid, sub_account_type: 'balance' as const, fee_top_up_percent: '0.250' },
  ]
  const all = exchangeDirections({ currencies: catalogue, prices, programs, networkFees, asOf })
  const pairs = (type: string) =>
    all
      .filter((d) => d.order_type === type)
      .map((d) => `${d.from.currency}${d.from.chain ? `/${d.from.chain}` : ''}→${d.to.currency}`)

  it('lists the order types in their order, each as of the rates', () => {
    const types = all.map((d) => d.order_type)
    expect([...new Set(types)]).toEqual(ORDER_TYPES.filter((type) => types.includes(type)))
    expect(new Set(all.map((d) => d.as_of))).toEqual(new Set([asOf.toISOString()]))
  })

  it('offers the bank rails in their currencies', () => {
    expect(pairs('DEPOSIT_FIAT_SEPA')).toEqual(['EUR→EUR'])
    expect(pairs('DEPOSIT_FIAT_SWIFT')).toEqual(['EUR→EUR', 'USD→USD', 'GBP→GBP'])
    expect(pairs('WITHDRAWAL_FIAT_SEPA')).toEqual(['EUR→EUR'])
    const swift = all.find((d) => d.order_type === 'DEPOSIT_FIAT_SWIFT')!
    expect(swift).toMatchObject({
      rate: PAR,
      min_amount: '1.00',
      max_amount: '50000.00',
      fee_fixed: '10.00',
      fee_percent: '0',
      network_fee: null,
    })
  })

  it('offers a crypto withdrawal of every coin and token, with its network fee', () => {
    expect(pairs('WITHDRAWAL_CRYPTO')).toEqual([
      'BTC/bitcoin→BTC',
      'TRX/tron→TRX',
      'USDT/tron→USDT',
      'USDC/ethereum→USDC',
    ])
    const usdt = all.find(
      (d) => d.order_type === 'WITHDRAWAL_CRYPTO' && d.from.currency_uuid === USDT_TRON.uuid,
    )!
    expect(usdt).toMatchObject({
      rate: PAR,
      min_amount: '5.000000',
      max_amount: '100000.000000',
      fee_fixed: '0.000000',
      network_fee: '3.679500',
    })
  })

  it('exchanges every pair of different codes, at the mid rate less the spread', () => {
    const exchanges = all.filter((d) => d.order_type === 'EXCHANGE_CRYPTO_INTERNAL')
    expect(exchanges).toHaveLength(7 * 6)
    const btcEur = exchanges.find((d) => d.from.currency === 'BTC' && d.to.currency === 'EUR')!
    expect(btcEur).toMatchObject({
      rate: exchangeRate('97342.18', '1.0834', '0.5'),
      min_amount: '0.00005137',
      fee_percent: '0.1',
      network_fee: null,
    })
    expect(exchanges.find((d) => d.from.currency === 'EUR' && d.to.currency === 'USD')!.rate).toBe(
      '1.0801498',
    )
  })

  it('tops cards up in the currencies of active programs, at the lowest program’s fee', () => {
    expect(pairs('TRANSFER_CARD_PREPAID')).toEqual(['EUR→EUR'])
    expect(pairs('TRANSFER_CARD_SUBACCOUNT')).toEqual(['EUR→EUR', 'USD→USD'])
    expect(all.find((d) => d.order_type === 'TRANSFER_CARD_PREPAID')!.fee_percent).toBe('0.5')
    expect(pairs('TRANSFER_CARD_WHOLESALE')).toEqual([
      'USDT/tron→EUR',
      'USDT/tron→USD',
      'USDC/ethereum→EUR',
      'USDC/ethereum→USD',
    ])
    const wholesale = all.find((d) => d.order_type === 'TRANSFER_CARD_WHOLESALE')!
    expect(wholesale).toMatchObject({
      rate: exchangeRate('1.00', '1.0834', '0.3'),
      fee_percent: '0',
      min_amount: '5.000000',
    })
  })

  it('leaves out what needs a price the provider did not give', () => {
    const withoutTrx = new Map([...prices].filter(([code]) => code !== 'TRX'))
    const list = exchangeDirections({
      currencies: catalogue,
      prices: withoutTrx,
      programs: [],
      networkFees: new Map([...networkFees].filter(([uuid]) => uuid !== TRX.uuid)),
      asOf,
    })
    expect(list.some((d) => d.from.currency === 'TRX' || d.to.currency === 'TRX')).toBe(false)
    expect(list.some((d) => d.order_type.startsWith('TRANSFER_CARD'))).toBe(false)
    expect(list.filter((d) => d.order_type === 'EXCHANGE_CRYPTO_INTERNAL')).toHaveLength(6 * 5)
  })
})
