import { beforeAll, describe, expect, it } from 'vitest'
import type { ActivityItem } from '../../../contract/activity.ts'
import type { MoneySide } from '../../../contract/orders.ts'
import { loadLanguage, translator } from '../../i18n/i18n.tsx'
import {
  activityTitle,
  avatarOf,
  dayBefore,
  dayLabel,
  figures,
  groupByDay,
  initials,
  statusText,
  topUpWords,
} from './wording.ts'

const en = translator('en')
let ru = translator('ru')
beforeAll(async () => {
  await loadLanguage('ru')
  ru = translator('ru')
})

const WALLET = '0190b0a4-0000-7000-8000-0000000000a1'
const OTHER_WALLET = '0190b0a4-0000-7000-8000-0000000000a2'

const side = (currency: string, amount: string, chain: MoneySide['chain'] = 'tron'): MoneySide => ({
  currency_uuid: `0190b0a4-0000-7000-8000-${currency.padStart(12, '0').slice(-12)}`,
  currency,
  chain,
  decimals: chain === null ? 2 : 8,
  amount,
})

const anItem = (overrides: Partial<ActivityItem> = {}): ActivityItem => ({
  id: '0190b0a4-0000-7000-8000-00000000aa01',
  type: 'exchange',
  status: 'complete',
  direction: 'own',
  wallet_uuid: WALLET,
  counter_wallet_uuid: null,
  card_id: null,
  card_last4: null,
  fiat_account_id: null,
  amount: side('USDT', '100'),
  fee: side('USDT', '0.1'),
  total: side('USDT', '100.1'),
  received: side('BTC', '0.00101885', 'bitcoin'),
  refunded: null,
  channel: null,
  dispute: null,
  rate: '0.00001018854339',
  counterparty_name: null,
  merchant: null,
  address: null,
  reference: null,
  tx_hash: null,
  note: null,
  confirmations: null,
  required_confirmations: null,
  fee_kind: null,
  failure_code: null,
  source: { type: 'order', id: '0190b0a4-0000-7000-8000-00000000bb01', order_type: null },
  created_at: '2026-11-12T10:00:00Z',
  updated_at: '2026-11-12T10:00:00Z',
  ...overrides,
})

const merchant = { name: 'Netflix', mcc: '4899', city: 'Amsterdam', country: 'NL' }

describe('an activity item’s title, in people’s words', () => {
  it.each([
    ['an exchange names both currencies', anItem(), 'Exchange USDT → BTC', 'Обмен USDT → BTC'],
    [
      'a send names the payee',
      anItem({ type: 'send', direction: 'out', counterparty_name: 'Anna Schmidt', received: null }),
      'To Anna Schmidt',
      null,
    ],
    [
      'a send to a bare address shortens it in the middle',
      anItem({
        type: 'send',
        direction: 'out',
        address: 'TXk3bq8e6pFJxRpZJbLZ3s7d4Wv9Zx1a2B',
        received: null,
      }),
      'To TXk3bq…1a2B',
      null,
    ],
    [
      'a card payment is its merchant',
      anItem({ type: 'card_purchase', direction: 'out', merchant, received: null }),
      'Netflix',
      'Netflix',
    ],
    [
      'a crypto deposit names its currency',
      anItem({ type: 'deposit', direction: 'in', received: null }),
      'USDT deposit',
      null,
    ],
    [
      'a bank deposit names its sender',
      anItem({
        type: 'deposit',
        direction: 'in',
        amount: side('EUR', '250', null),
        counterparty_name: 'Max Mustermann',
        received: null,
      }),
      'From Max Mustermann',
      null,
    ],
    [
      'a card top-up names the card',
      anItem({ type: 'card_top_up', card_last4: '4242' }),
      'Top-up of card ·· 4242',
      null,
    ],
    [
      'a monthly card fee says which fee',
      anItem({ type: 'fee', direction: 'out', fee_kind: 'MONTHLY', received: null }),
      'Card monthly fee',
      null,
    ],
  ])('%s', (_, item, english, russian) => {
    expect(activityTitle(en, item)).toBe(english)
    if (russian) expect(activityTitle(ru, item)).toBe(russian)
    // Never a record type: no ledger words reach the title.
    expect(activityTitle(en, item)).not.toMatch(/withdrawal|record|provider/i)
  })
})

describe('an activity item’s status line', () => {
  it('says nothing for a completed item (the row shows its time instead)', () => {
    expect(statusText(en, anItem())).toBeUndefined()
  })

  it('counts a deposit’s confirmations while it confirms', () => {
    const item = anItem({
      type: 'deposit',
      direction: 'in',
      status: 'pending',
      confirmations: 3,
      required_confirmations: 12,
    })
    expect(statusText(en, item)).toBe('Confirming · 3 of 12')
  })

  it('calls an authorised card payment pending, and a declined one declined', () => {
    const purchase = anItem({ type: 'card_purchase', direction: 'out', merchant })
    expect(statusText(en, { ...purchase, status: 'pending' })).toBe('Pending')
    expect(statusText(en, { ...purchase, status: 'declined' })).toBe('Declined')
    expect(statusText(ru, { ...purchase, status: 'declined' })).not.toBe('Declined')
  })
})

describe('an activity item’s amounts', () => {
  it('shows an exchange once: what arrived as money in, what it cost beneath', () => {
    const { primary, secondary } = figures(anItem())
    expect(primary).toEqual({ money: side('BTC', '0.00101885', 'bitcoin'), tone: 'in' })
    expect(secondary).toEqual({ money: side('USDT', '100.1'), tone: 'out' })
  })

  it('counts a send by its total, fee included, as money out', () => {
    const send = anItem({ type: 'send', direction: 'out', received: null })
    expect(figures(send)).toEqual({ primary: { money: side('USDT', '100.1'), tone: 'out' } })
  })

  it('shows money in as in', () => {
    const deposit = anItem({ type: 'deposit', direction: 'in', fee: null, received: null })
    expect(figures(deposit).primary).toEqual({ money: side('USDT', '100'), tone: 'in' })
  })

  it('strikes through what moved nothing: declined in red, reversed as void', () => {
    const purchase = anItem({ type: 'card_purchase', direction: 'out', merchant })
    expect(figures({ ...purchase, status: 'declined' }).primary.tone).toBe('failed')
    expect(figures({ ...purchase, status: 'reversed' }).primary.tone).toBe('void')
  })

  it('reads a move between two wallets from the wallet looked at', () => {
    const transfer = anItem({ type: 'transfer', counter_wallet_uuid: OTHER_WALLET })
    expect(figures(transfer, { wallet: WALLET }).primary.tone).toBe('out')
    expect(figures(transfer, { wallet: OTHER_WALLET }).primary.tone).toBe('in')
  })

  it('reads a card top-up as money in on the card, out of the wallet', () => {
    const topUp = anItem({ type: 'card_top_up', received: side('EUR', '92', null) })
    expect(figures(topUp, { account: true }).primary).toEqual({
      money: side('EUR', '92', null),
      tone: 'in',
    })
    expect(figures(topUp, { wallet: WALLET }).primary.tone).toBe('out')
  })

  it('reads a card top-up as one movement anywhere else: what the person gave, nothing beside it', () => {
    const topUp = anItem({ type: 'card_top_up', received: side('EUR', '92', null) })
    expect(figures(topUp)).toEqual({ primary: { money: side('USDT', '100.1'), tone: 'out' } })
  })
})

describe('a card top-up in words', () => {
  const eur = (amount: string) => side('EUR', amount, null)
  const topUp = anItem({
    type: 'card_top_up',
    amount: eur('200'),
    fee: eur('2'),
    total: eur('202'),
    received: eur('200'),
    rate: null,
  })
  it.each([
    ['en', topUp, { toCard: '€200.00 to the card', fee: '€2.00 fee' }],
    ['ru', topUp, { toCard: '200,00\u00a0€ на карту', fee: 'комиссия 2,00\u00a0€' }],
    ['en', { ...topUp, fee: null }, { toCard: '€200.00 to the card' }],
    ['en', anItem(), undefined],
  ] as const)('in %s: %j', (language, item, words) => {
    expect(topUpWords(language === 'en' ? en : ru, language, item)).toEqual(words)
  })
})

describe('an activity item’s picture', () => {
  it('is a merchant’s initial, a person’s initials, or an icon for what happened', () => {
    expect(avatarOf(anItem({ type: 'card_purchase', merchant }))).toMatchObject({
      kind: 'initials',
      text: 'N',
    })
    expect(avatarOf(anItem({ type: 'send', counterparty_name: 'anna schmidt' }))).toMatchObject({
      kind: 'initials',
      text: 'AS',
    })
    expect(avatarOf(anItem())).toEqual({ kind: 'icon', icon: 'exchange' })
    expect(initials('«Café» Einstein', 2)).toBe('CE')
  })

  it('gives one name the same colour every time', () => {
    const a = avatarOf(anItem({ type: 'card_purchase', merchant }))
    const b = avatarOf(anItem({ type: 'card_purchase', merchant, id: 'other' }))
    expect(a).toEqual(b)
  })
})

describe('grouping by day', () => {
  const at = (id: string, created_at: string) => ({ id, created_at })

  it('puts newest-first items into runs of one calendar day in the reader’s zone', () => {
    const items = [
      at('a', '2026-11-12T22:30:00Z'),
      at('b', '2026-11-12T09:00:00Z'),
      at('c', '2026-11-11T23:59:00Z'),
    ]
    expect(
      groupByDay(items, 'UTC').map((group) => [group.day, group.items.map((i) => i.id)]),
    ).toEqual([
      ['2026-11-12', ['a', 'b']],
      ['2026-11-11', ['c']],
    ])
    // In Tokyo (UTC+9) 22:30 UTC is already the next day, and 23:59 the day after it.
    expect(groupByDay(items, 'Asia/Tokyo').map((group) => group.day)).toEqual([
      '2026-11-13',
      '2026-11-12',
    ])
  })

  it('counts an item seen twice once (a page read again after new items pushed it down)', () => {
    const items = [at('a', '2026-11-12T10:00:00Z'), at('a', '2026-11-12T10:00:00Z')]
    expect(groupByDay(items, 'UTC')[0]!.items).toHaveLength(1)
  })

  it('names the days as people do: Today, Yesterday, then the date', () => {
    const now = new Date('2026-11-12T12:00:00Z')
    expect(dayLabel(en, 'en', '2026-11-12', now, 'UTC')).toBe('Today')
    expect(dayLabel(en, 'en', '2026-11-11', now, 'UTC')).toBe('Yesterday')
    expect(dayLabel(en, 'en', '2026-11-02', now, 'UTC')).toBe('November 2')
    expect(dayLabel(en, 'en', '2025-11-02', now, 'UTC')).toBe('November 2, 2025')
    expect(dayLabel(ru, 'ru', '2026-11-11', now, 'UTC')).toBe('Вчера')
    expect(dayLabel(ru, 'ru', '2026-11-02', now, 'UTC')).toBe('2 ноября')
  })

  it('steps back over month ends and leap days without a clock', () => {
    expect(dayBefore('2026-03-01')).toBe('2026-02-28')
    expect(dayBefore('2028-03-01')).toBe('2028-02-29')
    expect(dayBefore('2027-01-01')).toBe('2026-12-31')
  })
})
