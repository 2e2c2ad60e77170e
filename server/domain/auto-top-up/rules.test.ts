import { describe, expect, it } from 'vitest'
import type { AutoTopUpBody } from '../../../contract/auto-top-up.ts'
import type { PricedCurrency } from '../orders/pricing.ts'
import { type SettingFacts, settingsOf, topUpDecision, topUpOrderType } from './rules.ts'

const EUR: PricedCurrency = { uuid: 'eur', code: 'EUR', type: 'fiat', decimals: 2, chain: null }
const USDT: PricedCurrency = {
  uuid: 'usdt',
  code: 'USDT',
  type: 'token',
  decimals: 6,
  chain: 'tron',
}
const BTC: PricedCurrency = {
  uuid: 'btc',
  code: 'BTC',
  type: 'native',
  decimals: 8,
  chain: 'bitcoin',
}

const facts = (extra: Partial<SettingFacts> = {}): SettingFacts => ({
  account: { currencyUuid: 'eur', currency: 'EUR', decimals: 2 },
  walletIsOwn: true,
  from: EUR,
  ...extra,
})
const on: AutoTopUpBody = {
  enabled: true,
  below: '20',
  top_up_to: '100',
  from_wallet_uuid: 'w',
  from_currency: 'eur',
  daily_cap: '300',
}

describe('auto top-up settings', () => {
  it('keeps complete settings in minor units of the account’s currency', () => {
    expect(settingsOf(on, facts())).toEqual({
      settings: {
        enabled: true,
        belowMinor: 2000n,
        topUpToMinor: 10_000n,
        dailyCapMinor: 30_000n,
        fromWalletId: 'w',
        fromCurrencyUuid: 'eur',
      },
    })
    expect(settingsOf({ ...on, from_currency: 'usdt' }, facts({ from: USDT }))).toMatchObject({
      settings: { fromCurrencyUuid: 'usdt' },
    })
  })

  it.each<[string, AutoTopUpBody, Partial<SettingFacts>, string[]]>([
    [
      'on needs every field',
      { enabled: true },
      {},
      ['below', 'top_up_to', 'daily_cap', 'from_wallet_uuid', 'from_currency'],
    ],
    ['top_up_to above below', { ...on, top_up_to: '20' }, {}, ['top_up_to']],
    ['amounts above zero', { ...on, below: '0', daily_cap: '0.00' }, {}, ['below', 'daily_cap']],
    ['the account’s decimals', { ...on, below: '1.005' }, {}, ['below']],
    ['the person’s own wallet', on, { walletIsOwn: false }, ['from_wallet_uuid']],
    ['a known currency', on, { from: undefined }, ['from_currency']],
    ['the account’s currency or a stablecoin', on, { from: BTC }, ['from_currency']],
    [
      'off, what is given is checked too',
      { enabled: false, below: '5', top_up_to: '1' },
      {},
      ['top_up_to'],
    ],
  ])('refuses: %s', (_, body, extra, fields) => {
    const checked = settingsOf(body, facts(extra))
    expect('faults' in checked && checked.faults.map((fault) => fault.field)).toEqual(
      fields.map((field) => `/body/${field}`),
    )
  })

  it('off alone is enough, and clears nothing it was not given', () => {
    expect(settingsOf({ enabled: false }, facts())).toEqual({
      settings: {
        enabled: false,
        belowMinor: null,
        topUpToMinor: null,
        dailyCapMinor: null,
        fromWalletId: null,
        fromCurrencyUuid: null,
      },
    })
  })

  it('the account’s own currency moves as a sub-account top-up, a stablecoin wholesale', () => {
    expect(topUpOrderType('eur', 'eur')).toBe('TRANSFER_CARD_SUBACCOUNT')
    expect(topUpOrderType('usdt', 'eur')).toBe('TRANSFER_CARD_WHOLESALE')
  })
})

describe('how much a run tops up', () => {
  const base = {
    balanceMinor: 1_000n,
    onTheWayMinor: 0n,
    topUpToMinor: 10_000n,
    dailyCapMinor: 50_000n,
    usedTodayMinor: 0n,
  }
  it.each<[string, Partial<typeof base>, ReturnType<typeof topUpDecision>]>([
    ['back to top_up_to', {}, { kind: 'TOP_UP', amountMinor: 9_000n }],
    ['less what is on its way', { onTheWayMinor: 4_000n }, { kind: 'TOP_UP', amountMinor: 5_000n }],
    ['nothing when on its way covers it', { onTheWayMinor: 9_000n }, { kind: 'NOTHING_TO_DO' }],
    ['nothing when back above meanwhile', { balanceMinor: 12_000n }, { kind: 'NOTHING_TO_DO' }],
    [
      'clipped to what is left of the cap',
      { usedTodayMinor: 45_000n },
      { kind: 'TOP_UP', amountMinor: 5_000n },
    ],
    ['refused once the cap is used up', { usedTodayMinor: 50_000n }, { kind: 'CAP_REACHED' }],
    [
      'a negative balance is topped up whole',
      { balanceMinor: -500n },
      { kind: 'TOP_UP', amountMinor: 10_500n },
    ],
  ])('%s', (_, input, expected) => {
    expect(topUpDecision({ ...base, ...input })).toEqual(expected)
  })
})
