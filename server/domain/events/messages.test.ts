import { describe, expect, it } from 'vitest'
import { EVENT_KINDS, type EventKind } from '../../../contract/events.ts'
import {
  CARD_TOP_UP,
  CARD_PAYMENT as card,
  USDT_DEPOSIT as coins,
  EXCHANGE,
  orderOutcome as order,
  REFUSED_SEND,
} from '../../../tests/support/event-payloads.ts'
import { eventMessage, formatAmount, type Language } from './messages.ts'

type Case = [string, EventKind, Record<string, unknown>, Language, string, string]

/** Every kind, in both languages: who, what and how much, as the activity feed says them. */
const CASES: Case[] = [
  [
    'a card payment',
    'card.authorization.approved',
    { ...card, amount: '3.50' },
    'en',
    'Corner Café',
    '−€3.50 · Card payment',
  ],
  [
    'a card payment',
    'card.authorization.approved',
    { ...card, amount: '3.50' },
    'ru',
    'Corner Café',
    '−3,50\u00a0€ · Оплата картой',
  ],
  [
    'a decline, its reason whole',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'INSUFFICIENT_FUNDS' },
    'en',
    'Corner Café',
    '€10.00 · Declined: not enough money on the account',
  ],
  [
    'a decline, its reason whole',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'THREE_DS_FAILED' },
    'ru',
    'Corner Café',
    '10,00\u00a0€ · Отклонена: не подтверждена одноразовым кодом карты',
  ],
  [
    'a decline of a reason unknown',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'NEWER' },
    'en',
    'Corner Café',
    '€10.00 · Declined',
  ],
  [
    'a settled payment',
    'card.transaction.settled',
    { ...card, amount: '42.90' },
    'en',
    'Corner Café',
    '−€42.90 · Card payment settled',
  ],
  [
    'a settled payment',
    'card.transaction.settled',
    { ...card, amount: '42.90' },
    'ru',
    'Corner Café',
    '−42,90\u00a0€ · Оплата проведена',
  ],
  [
    'a refund',
    'card.transaction.refunded',
    { ...card, amount: '15.00' },
    'en',
    'Corner Café',
    '+€15.00 · Refund to your card',
  ],
  [
    'a refund',
    'card.transaction.refunded',
    { ...card, amount: '15.00' },
    'ru',
    'Corner Café',
    '+15,00\u00a0€ · Возврат на карту',
  ],
  [
    'a deposit seen',
    'deposit.detected',
    coins,
    'en',
    'USDT deposit',
    '1,250.5\u00a0USDT · On its way',
  ],
  [
    'a deposit seen',
    'deposit.detected',
    coins,
    'ru',
    'Пополнение USDT',
    '1\u00a0250,5\u00a0USDT · В пути',
  ],
  [
    'a deposit confirmed',
    'deposit.confirmed',
    coins,
    'en',
    'USDT deposit',
    '+1,250.5\u00a0USDT · Arrived',
  ],
  [
    'a deposit confirmed',
    'deposit.confirmed',
    coins,
    'ru',
    'Пополнение USDT',
    '+1\u00a0250,5\u00a0USDT · Зачислено',
  ],
  [
    'a payment to a person',
    'order.completed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'en',
    'To Anna Schmidt',
    '−€51.00 · Sent',
  ],
  [
    'a payment to a person',
    'order.completed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'ru',
    'Anna Schmidt',
    '−51,00\u00a0€ · Отправлено',
  ],
  [
    'a send to an address',
    'order.completed',
    order('WITHDRAWAL_CRYPTO', {
      from_currency: 'USDT',
      to_currency: 'USDT',
      total_amount: '51',
      address: 'TQ5xUJ1xq2mdzm3MHNbdxcTbjtN3H8Xhkz',
    }),
    'en',
    'To TQ5xUJ…Xhkz',
    '−51\u00a0USDT · Sent',
  ],
  [
    'a send of an older event',
    'order.completed',
    { ...order('WITHDRAWAL_CRYPTO', { from_currency: 'USDT' }), total_amount: undefined },
    'en',
    'Sent USDT',
    '−50\u00a0USDT · Sent',
  ],
  [
    'an exchange',
    'order.completed',
    EXCHANGE,
    'en',
    'Exchange USDT → BTC',
    '+0.00025431\u00a0BTC · For 25.1\u00a0USDT',
  ],
  [
    'an exchange',
    'order.completed',
    EXCHANGE,
    'ru',
    'Обмен USDT → BTC',
    '+0,00025431\u00a0BTC · За 25,1\u00a0USDT',
  ],
  [
    'a bank deposit',
    'order.completed',
    order('DEPOSIT_FIAT_SEPA', { to_amount: '200.00', counterparty_name: 'Max Mustermann' }),
    'en',
    'From Max Mustermann',
    '+€200.00 · Arrived',
  ],
  [
    'a bank deposit, sender unknown',
    'order.completed',
    order('DEPOSIT_FIAT_SWIFT', { to_amount: '200.00' }),
    'ru',
    'Входящий банковский перевод',
    '+200,00\u00a0€ · Зачислено',
  ],
  [
    'a card top-up',
    'order.completed',
    CARD_TOP_UP,
    'en',
    'Top-up of card ·· 3044',
    '−€202.00 · €200.00 to the card · €2.00 fee',
  ],
  [
    'a card top-up',
    'order.completed',
    order('TRANSFER_CARD_WHOLESALE', {
      from_amount: '200',
      from_currency: 'USDT',
      fee_amount: '0',
      total_amount: '200',
      to_amount: '184.20',
    }),
    'ru',
    'Пополнение счёта карты',
    '−200\u00a0USDT · 184,20\u00a0€ на карту',
  ],
  [
    'a failed payout, why in full',
    'order.failed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt', reason: 'ACCOUNT_CLOSED' }),
    'en',
    'To Anna Schmidt',
    '€50.00 · Didn’t go through: the recipient’s account is closed. The money is back in your wallet.',
  ],
  [
    'a failed payout, why in full',
    'order.failed',
    REFUSED_SEND,
    'ru',
    '0x5290…9EE7',
    '50\u00a0USDT · Не выполнено: сеть отклонила адрес. Деньги вернулись в кошелёк.',
  ],
  [
    'a failed top-up',
    'order.failed',
    order('TRANSFER_CARD_PREPAID', { reason: null }),
    'en',
    'Card account top-up',
    '€50.00 · Didn’t go through. Any money set aside is back in your wallet.',
  ],
  [
    'an approval',
    'kyc.status_changed',
    { status: 'APPROVED' },
    'en',
    'Identity verification',
    'You’re verified',
  ],
  [
    'a review',
    'kyc.status_changed',
    { status: 'HOLD' },
    'ru',
    'Проверка личности',
    'Документы на проверке',
  ],
  [
    'a new device',
    'security.sign_in_new_device',
    {},
    'en',
    'Sign-in from a new device',
    'If this wasn’t you, change your password.',
  ],
  [
    'a new device',
    'security.sign_in_new_device',
    {},
    'ru',
    'Вход с нового устройства',
    'Если это были не вы, смените пароль.',
  ],
  [
    'a new key',
    'security.api_key_created',
    { name: 'Bookkeeping' },
    'en',
    'API key created',
    'Bookkeeping',
  ],
  [
    'a new key',
    'security.api_key_created',
    { name: 'Bookkeeping' },
    'ru',
    'Создан API-ключ',
    'Bookkeeping',
  ],
  [
    'a new e-mail',
    'security.contact_changed',
    { contact: 'email', masked: 'a***@example.com' },
    'en',
    'E-mail changed',
    'Now a***@example.com',
  ],
  [
    'a new phone',
    'security.contact_changed',
    { contact: 'phone', masked: '+49 *** 67' },
    'ru',
    'Изменён телефон',
    'Теперь +49 *** 67',
  ],
]

describe('what a push or a bot message says', () => {
  it.each(CASES)('%s (%s) in %s', (_, kind, data, language, title, body) => {
    expect(eventMessage(kind, data, language)).toEqual({ title, body })
  })

  it('has a case for every kind, in both languages', () => {
    for (const language of ['en', 'ru'] as const) {
      const covered = new Set(CASES.filter((c) => c[3] === language).map((c) => c[1]))
      expect(
        [...EVENT_KINDS].filter((kind) => !covered.has(kind)),
        language,
      ).toEqual([])
    }
  })

  it('never says the ledger’s words, nor the same amount twice', () => {
    for (const [, kind, data, language] of CASES) {
      const { title, body } = eventMessage(kind, data, language)
      expect(`${title} ${body}`).not.toMatch(/Order (completed|failed)|Заявка|→ €|€\S+ → /)
    }
  })
})

describe('an amount in a message', () => {
  it.each([
    ['en', '1234.5', 'EUR', undefined, '€1,234.50'],
    ['ru', '1234.5', 'EUR', 'out', '−1\u00a0234,50\u00a0€'],
    ['en', '0.001018850000', 'BTC', 'in', '+0.00101885\u00a0BTC'],
    ['en', '0.000000001234567891', 'ETH', undefined, '0.0000000012345678\u00a0ETH'],
    ['en', '0.00', 'EUR', 'in', '€0.00'],
    ['en', 'not an amount', 'EUR', undefined, ''],
  ] as const)('in %s, %s %s %s reads %s', (language, amount, currency, sign, shown) => {
    expect(formatAmount(language, amount, currency, sign)).toBe(shown)
  })
})
