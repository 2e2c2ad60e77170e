import { beforeAll, describe, expect, it } from 'vitest'
import {
  alwaysTold,
  EVENT_KINDS,
  type EventKind,
  QUIET_KINDS,
  quiet,
} from '../../../contract/event-kinds.ts'
import {
  CARD_PAYMENT as card,
  USDT_DEPOSIT as coins,
  EXCHANGE as exchange,
  orderOutcome as order,
  PERSON_TRANSFER,
  REFUSED_SEND,
  CARD_TOP_UP as topUp,
} from '../../../tests/support/event-payloads.ts'
import { type Language, loadLanguage, type Translate, translator } from '../../i18n/i18n.tsx'
import { describeNotification } from './describe.ts'
import { KIND_GROUPS } from './kind-groups.ts'

const en = translator('en')
let ru: Translate = translator('ru')
beforeAll(async () => {
  await loadLanguage('ru')
  ru = translator('ru')
})

const NB = '\u00a0'

type Said = { title: string; detail: string; amount?: string; failed?: boolean }
type Case = [string, EventKind, Record<string, unknown>, Language, Said]

/** Every kind, in both languages: who or what, what happened, how much — the activity feed's words. */
const CASES: Case[] = [
  [
    'a card payment',
    'card.authorization.approved',
    { ...card, amount: '3.50' },
    'en',
    { title: 'Corner Café', detail: 'Card payment', amount: '−€3.50' },
  ],
  [
    'a card payment',
    'card.authorization.approved',
    { ...card, amount: '3.50' },
    'ru',
    { title: 'Corner Café', detail: 'Оплата картой', amount: `−3,50${NB}€` },
  ],
  [
    'a decline, its reason whole',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'INSUFFICIENT_FUNDS' },
    'en',
    {
      title: 'Corner Café',
      detail: 'Declined: not enough money on the account',
      amount: '€10.00',
      failed: true,
    },
  ],
  [
    'a decline, its reason whole',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'THREE_DS_FAILED' },
    'ru',
    {
      title: 'Corner Café',
      detail: 'Отклонена: не подтверждена одноразовым кодом карты',
      amount: `10,00${NB}€`,
      failed: true,
    },
  ],
  [
    'a reversal: nothing charged, so no sign',
    'card.authorization.reversed',
    { ...card, amount: '42.90' },
    'en',
    { title: 'Corner Café', detail: 'Reversed · nothing charged', amount: '€42.90' },
  ],
  [
    'a reversal: nothing charged, so no sign',
    'card.authorization.reversed',
    { ...card, amount: '42.90' },
    'ru',
    { title: 'Corner Café', detail: 'Отменена · ничего не списано', amount: `42,90${NB}€` },
  ],
  [
    'a settled payment',
    'card.transaction.settled',
    { ...card, amount: '42.90' },
    'en',
    { title: 'Corner Café', detail: 'Card payment settled', amount: '−€42.90' },
  ],
  [
    'a settled payment',
    'card.transaction.settled',
    { ...card, amount: '42.90' },
    'ru',
    { title: 'Corner Café', detail: 'Оплата проведена', amount: `−42,90${NB}€` },
  ],
  [
    'a refund',
    'card.transaction.refunded',
    { ...card, amount: '15.00' },
    'en',
    { title: 'Corner Café', detail: 'Refund to your card', amount: '+€15.00' },
  ],
  [
    'a refund',
    'card.transaction.refunded',
    { ...card, amount: '15.00' },
    'ru',
    { title: 'Corner Café', detail: 'Возврат на карту', amount: `+15,00${NB}€` },
  ],
  [
    'a deposit seen',
    'deposit.detected',
    coins,
    'en',
    { title: 'USDT deposit', detail: 'On its way', amount: `1,250.5${NB}USDT` },
  ],
  [
    'a deposit seen',
    'deposit.detected',
    coins,
    'ru',
    { title: 'Пополнение USDT', detail: 'В пути', amount: `1${NB}250,5${NB}USDT` },
  ],
  [
    'a deposit confirmed',
    'deposit.confirmed',
    coins,
    'en',
    { title: 'USDT deposit', detail: 'Arrived', amount: `+1,250.5${NB}USDT` },
  ],
  [
    'a deposit confirmed',
    'deposit.confirmed',
    coins,
    'ru',
    { title: 'Пополнение USDT', detail: 'Зачислено', amount: `+1${NB}250,5${NB}USDT` },
  ],
  [
    'a bank transfer in, from its sender',
    'fiat.credit.received',
    {
      fiat_account_id: 'f',
      credit_id: 'c',
      amount: '250.00',
      currency: 'EUR',
      sender_name: 'Anna Schmidt',
      remittance: 'Rent May',
    },
    'en',
    { title: 'From Anna Schmidt', detail: 'Rent May', amount: '+€250.00' },
  ],
  [
    'a bank transfer in, no sender named',
    'fiat.credit.received',
    {
      fiat_account_id: 'f',
      credit_id: 'c',
      amount: '250.00',
      currency: 'EUR',
      sender_name: null,
      remittance: null,
    },
    'ru',
    { title: 'Входящий банковский перевод', detail: 'Зачислено', amount: `+250,00${NB}€` },
  ],
  [
    'a monthly card fee',
    'card.fee.charged',
    {
      card_id: 'k',
      transaction_id: 't',
      amount: '1.00',
      currency: 'EUR',
      fee_kind: 'MONTHLY',
      paid: true,
    },
    'en',
    { title: 'Card monthly fee', detail: 'Taken from the card’s account', amount: '−€1.00' },
  ],
  [
    'a monthly card fee the account could not pay',
    'card.fee.charged',
    {
      card_id: 'k',
      transaction_id: 't',
      amount: '1.00',
      currency: 'EUR',
      fee_kind: 'MONTHLY',
      paid: false,
    },
    'ru',
    {
      title: 'Ежемесячная плата за карту',
      detail: 'Не списана: на карте недостаточно денег. Карта работает.',
      amount: `1,00${NB}€`,
      failed: true,
    },
  ],
  [
    'a stand-alone card closed, its balance returned',
    'card.closed',
    { card_id: 'k', last4: '3044', returned_amount: '12.40', currency: 'EUR' },
    'en',
    {
      title: 'Card ·· 3044 closed',
      detail: 'What was left is back in your wallet',
      amount: '+€12.40',
    },
  ],
  [
    'a card on a shared account closed',
    'card.closed',
    { card_id: 'k', last4: '3044', returned_amount: null, currency: 'EUR' },
    'ru',
    { title: 'Карта ·· 3044 закрыта', detail: 'Ею больше нельзя платить' },
  ],
  [
    'a payment to a person',
    'order.completed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'en',
    { title: 'To Anna Schmidt', detail: 'Sent', amount: '−€51.00' },
  ],
  [
    'a payment to a person',
    'order.completed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'ru',
    { title: 'Anna Schmidt', detail: 'Отправлено', amount: `−51,00${NB}€` },
  ],
  [
    'a send to an address',
    'order.completed',
    order('WITHDRAWAL_CRYPTO', {
      from_currency: 'USDT',
      total_amount: '51',
      address: 'TQ5xUJ1xq2mdzm3MHNbdxcTbjtN3H8Xhkz',
    }),
    'en',
    { title: 'To TQ5xUJ…Xhkz', detail: 'Sent', amount: `−51${NB}USDT` },
  ],
  [
    'an exchange',
    'order.completed',
    exchange,
    'en',
    { title: 'Exchange USDT → BTC', detail: `For 25.1${NB}USDT`, amount: `+0.00025431${NB}BTC` },
  ],
  [
    'an exchange',
    'order.completed',
    exchange,
    'ru',
    { title: 'Обмен USDT → BTC', detail: `За 25,1${NB}USDT`, amount: `+0,00025431${NB}BTC` },
  ],
  [
    'a bank deposit',
    'order.completed',
    order('DEPOSIT_FIAT_SEPA', { to_amount: '200.00', counterparty_name: 'Max Mustermann' }),
    'en',
    { title: 'From Max Mustermann', detail: 'Arrived', amount: '+€200.00' },
  ],
  [
    'a bank deposit, sender unknown',
    'order.completed',
    order('DEPOSIT_FIAT_SWIFT', { to_amount: '200.00' }),
    'ru',
    { title: 'Входящий банковский перевод', detail: 'Зачислено', amount: `+200,00${NB}€` },
  ],
  [
    'a card top-up',
    'order.completed',
    topUp,
    'en',
    {
      title: 'Top-up of card ·· 3044',
      detail: '€200.00 to the card · €2.00 fee',
      amount: '−€202.00',
    },
  ],
  [
    'a card top-up',
    'order.completed',
    topUp,
    'ru',
    {
      title: 'Пополнение карты ·· 3044',
      detail: `200,00${NB}€ на карту · комиссия 2,00${NB}€`,
      amount: `−202,00${NB}€`,
    },
  ],
  [
    'an exchange placed: set aside, unsigned',
    'order.created',
    { ...exchange, status: 'NEW', deposit_reference: null },
    'en',
    {
      title: 'Exchange USDT → BTC',
      detail: 'Placed. The money is set aside until it goes through.',
      amount: `25.1${NB}USDT`,
    },
  ],
  [
    'a bank deposit placed: the reference to send with',
    'order.created',
    order('DEPOSIT_FIAT_SEPA', { status: 'PENDING', deposit_reference: 'FP-7K2M-9QXD' }),
    'ru',
    {
      title: 'Входящий банковский перевод',
      detail: 'Ждём ваш банковский перевод. Назначение платежа: FP-7K2M-9QXD',
      amount: `50,00${NB}€`,
    },
  ],
  [
    'a send cancelled',
    'order.canceled',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'en',
    {
      title: 'To Anna Schmidt',
      detail: 'Cancelled. Anything set aside is back in your wallet.',
      amount: '€50.00',
    },
  ],
  [
    'a send placed',
    'order.created',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt', status: 'NEW' }),
    'ru',
    {
      title: 'Anna Schmidt',
      detail: 'Создано. Деньги зарезервированы до исполнения.',
      amount: `51,00${NB}€`,
    },
  ],
  [
    'a send cancelled',
    'order.canceled',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt' }),
    'ru',
    {
      title: 'Anna Schmidt',
      detail: 'Отменено. Зарезервированное вернулось в кошелёк.',
      amount: `50,00${NB}€`,
    },
  ],
  [
    'a failed payout, why in full',
    'order.failed',
    order('WITHDRAWAL_FIAT_SEPA', { counterparty_name: 'Anna Schmidt', reason: 'ACCOUNT_CLOSED' }),
    'en',
    {
      title: 'To Anna Schmidt',
      detail:
        'Didn’t go through: the recipient’s account is closed. The money is back in your wallet.',
      amount: '€50.00',
      failed: true,
    },
  ],
  [
    'a failed send, why in full',
    'order.failed',
    REFUSED_SEND,
    'ru',
    {
      title: '0x5290…9EE7',
      detail: 'Не выполнено: сеть отклонила адрес. Деньги вернулись в кошелёк.',
      amount: `50${NB}USDT`,
      failed: true,
    },
  ],
  [
    'an approval',
    'kyc.status_changed',
    { status: 'APPROVED' },
    'en',
    { title: 'Identity verification', detail: 'You’re verified' },
  ],
  [
    'a review',
    'kyc.status_changed',
    { status: 'HOLD' },
    'ru',
    { title: 'Проверка личности', detail: 'Документы на проверке' },
  ],
  [
    'a new device',
    'security.sign_in_new_device',
    {},
    'en',
    {
      title: 'Sign-in from a new device',
      detail: 'If this wasn’t you, change your password in Sign-in and security.',
    },
  ],
  [
    'a new device',
    'security.sign_in_new_device',
    {},
    'ru',
    {
      title: 'Вход с нового устройства',
      detail: 'Если это были не вы, смените пароль в разделе «Вход и безопасность».',
    },
  ],
  [
    'a new key',
    'security.api_key_created',
    { name: 'Books' },
    'en',
    { title: 'API key created: Books', detail: '' },
  ],
  [
    'a new key',
    'security.api_key_created',
    { name: 'Books' },
    'ru',
    { title: 'Создан API-ключ: Books', detail: '' },
  ],
  [
    'a new e-mail',
    'security.contact_changed',
    { masked: 'a***@example.com' },
    'en',
    { title: 'Contact details changed', detail: 'Now a***@example.com' },
  ],
  [
    'a new phone',
    'security.contact_changed',
    { masked: '+49 *** 67' },
    'ru',
    { title: 'Контактные данные изменены', detail: 'Теперь +49 *** 67' },
  ],
  [
    'a password change',
    'security.password_changed',
    { via: 'change' },
    'en',
    {
      title: 'Password changed',
      detail: 'If this wasn’t you, reset your password from the sign-in screen.',
    },
  ],
  [
    'a password reset',
    'security.password_changed',
    { via: 'reset' },
    'ru',
    {
      title: 'Пароль изменён',
      detail: 'Сброшен по коду. Если это были не вы, сбросьте его снова на экране входа.',
    },
  ],
  [
    'a physical card',
    'card.issued',
    { form_factor: 'PHYSICAL', last4: '4242', delivery_to: 'London, GB' },
    'ru',
    { title: 'Выпущена новая карта', detail: 'Пластиковая карта ·· 4242, доставка: London, GB' },
  ],
  [
    'a decline by the card’s controls, naming the channel',
    'card.authorization.declined',
    { ...card, amount: '10.00', reason: 'CHANNEL_BLOCKED', channel: 'online' },
    'en',
    {
      title: 'Corner Café',
      detail: 'Online payments are off for this card',
      amount: '€10.00',
      failed: true,
    },
  ],
  [
    'a fraud claim credited while reviewed',
    'card.dispute.updated',
    { ...card, amount: '42.90', status: 'SUBMITTED', credited: '42.90', provisional: true },
    'en',
    { title: 'Corner Café', detail: 'Dispute sent', amount: '+€42.90' },
  ],
  [
    'a dispute lost',
    'card.dispute.updated',
    { ...card, amount: '42.90', status: 'LOST', credited: null, provisional: false },
    'ru',
    { title: 'Corner Café', detail: 'Спор проигран', amount: `42,90${NB}€` },
  ],
  [
    'an auto top-up placed',
    'card.auto_top_up.placed',
    { amount: '150.00', currency: 'EUR' },
    'en',
    { title: 'Card auto top-up', detail: 'On its way to the card', amount: '+€150.00' },
  ],
  [
    'an auto top-up placed',
    'card.auto_top_up.placed',
    { amount: '150.00', currency: 'EUR' },
    'ru',
    { title: 'Автопополнение карты', detail: 'В пути на карту', amount: `+150,00${NB}€` },
  ],
  [
    'an auto top-up that did not happen',
    'card.auto_top_up.failed',
    { amount: '150.00', currency: 'EUR', reason: 'INSUFFICIENT_FUNDS' },
    'en',
    {
      title: 'Auto top-up didn’t happen',
      detail: 'Didn’t happen: check the wallet and the daily cap',
      amount: '€150.00',
      failed: true,
    },
  ],
  [
    'an auto top-up that did not happen',
    'card.auto_top_up.failed',
    { amount: '150.00', currency: 'EUR', reason: 'DAILY_CAP_REACHED' },
    'ru',
    {
      title: 'Автопополнение не удалось',
      detail: 'Не удалось: проверьте кошелёк и дневной лимит',
      amount: `150,00${NB}€`,
      failed: true,
    },
  ],
  [
    'a lockdown begun',
    'security.lockdown',
    { state: 'started', via: 'push' },
    'en',
    { title: 'Lockdown', detail: 'Your cards are frozen and other devices are signed out' },
  ],
  [
    'a lockdown lifted',
    'security.lockdown',
    { state: 'lifted', via: 'app' },
    'ru',
    {
      title: 'Блокировка',
      detail: 'Снята. Карты остаются замороженными: размораживайте их по одной',
    },
  ],
  [
    'a virtual card',
    'card.issued',
    { form_factor: 'VIRTUAL', last4: '4242', delivery_to: null },
    'en',
    { title: 'New card issued', detail: 'Virtual card ·· 4242' },
  ],
  [
    'a key given a new secret',
    'security.api_key_changed',
    { name: 'Bookkeeping', change: 'rotated' },
    'en',
    { title: 'API key changed: Bookkeeping', detail: 'It was given a new secret.' },
  ],
  [
    'a key changed',
    'security.api_key_changed',
    { name: 'Bookkeeping', change: 'updated' },
    'ru',
    {
      title: 'Изменён API-ключ: Bookkeeping',
      detail: 'Это были не вы? Завершите все другие сеансы.',
    },
  ],
  [
    'a webhook added',
    'security.webhook_endpoint_added',
    { url: 'https://books.example/hook' },
    'en',
    { title: 'Webhook endpoint added', detail: 'https://books.example/hook' },
  ],
  [
    'a webhook added',
    'security.webhook_endpoint_added',
    { url: 'https://books.example/hook' },
    'ru',
    { title: 'Добавлен вебхук', detail: 'https://books.example/hook' },
  ],
  [
    "a webhook's new address",
    'security.webhook_endpoint_changed',
    { url: 'https://books.example/new', change: 'url' },
    'en',
    {
      title: 'Webhook endpoint changed',
      detail: 'Your events now go to https://books.example/new',
    },
  ],
  [
    "a webhook's new secret",
    'security.webhook_endpoint_changed',
    { url: 'https://books.example/hook', change: 'secret' },
    'ru',
    { title: 'Изменён вебхук', detail: 'Ему выдан новый секрет подписи.' },
  ],
  [
    'push on a named device',
    'security.push_subscription_added',
    { device: 'Chrome, macOS' },
    'en',
    { title: 'Notifications turned on for a device', detail: 'On Chrome, macOS' },
  ],
  [
    'push on an unnamed device',
    'security.push_subscription_added',
    { device: null },
    'ru',
    { title: 'Уведомления включены на устройстве', detail: 'На неизвестном устройстве' },
  ],
  [
    'a passkey added',
    'security.passkey_added',
    { name: 'iPhone' },
    'en',
    { title: 'Passkey added: iPhone', detail: 'Not you? Sign out every other session.' },
  ],
  [
    'a passkey added',
    'security.passkey_added',
    { name: 'iPhone' },
    'ru',
    {
      title: 'Добавлен ключ доступа: iPhone',
      detail: 'Это были не вы? Завершите все другие сеансы.',
    },
  ],
  [
    'a passkey removed',
    'security.passkey_removed',
    { name: 'iPhone' },
    'en',
    { title: 'Passkey removed: iPhone', detail: 'Not you? Sign out every other session.' },
  ],
  [
    'a passkey removed',
    'security.passkey_removed',
    { name: 'iPhone' },
    'ru',
    {
      title: 'Удалён ключ доступа: iPhone',
      detail: 'Это были не вы? Завершите все другие сеансы.',
    },
  ],
  [
    'a payment sent',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: 'Dinner', to_name: 'Anna S.', status: 'COMPLETE' },
    'en',
    { title: 'You paid Anna S.', detail: 'Dinner', amount: '−€20.00' },
  ],
  [
    'a payment waiting for its contact',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com', status: 'AWAITING_CLAIM' },
    'en',
    {
      title: 'You paid anna@example.com',
      detail: 'Waiting for them to sign up',
      amount: '−€20.00',
    },
  ],
  [
    'a payment received',
    'transfer.received',
    { ...PERSON_TRANSFER, note: 'Dinner', from_name: 'Mia W.' },
    'en',
    { title: 'Mia W. sent you money', detail: 'Dinner', amount: '+€20.00' },
  ],
  [
    'a payment claimed',
    'transfer.claimed',
    { ...PERSON_TRANSFER, note: null, to_name: 'Anna S.' },
    'en',
    { title: 'Anna S. got your money', detail: 'They signed up and got it', amount: '−€20.00' },
  ],
  [
    'a payment back',
    'transfer.returned',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com' },
    'en',
    {
      title: 'Your money came back',
      detail: 'anna@example.com didn’t claim it within 7 days',
      amount: '+€20.00',
    },
  ],
  [
    'a request paid',
    'payment_request.paid',
    { ...PERSON_TRANSFER, note: 'Dinner', payer_name: 'Mia W.' },
    'en',
    { title: 'Mia W. paid your request', detail: 'Dinner', amount: '+€20.00' },
  ],
  [
    'a run short of money',
    'schedule.run_failed',
    { amount: '50.00', currency: 'EUR', reason: 'INSUFFICIENT_FUNDS', kind: 'transfer' },
    'en',
    {
      title: 'A scheduled payment didn’t go through',
      detail: 'Not enough money for €50.00. The next one runs as planned.',
      failed: true,
    },
  ],
  [
    'a run skipped',
    'schedule.run_skipped',
    { amount: '50.00', currency: 'EUR', reason: 'PRICE_MOVED', kind: 'exchange' },
    'en',
    {
      title: 'A scheduled exchange was skipped',
      detail: 'The price moved past your limit. The next one runs as planned.',
    },
  ],
  [
    'a payment sent',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: 'Dinner', to_name: 'Anna S.', status: 'COMPLETE' },
    'ru',
    { title: 'Вы отправили деньги: Anna S.', detail: 'Dinner', amount: `−20,00${NB}€` },
  ],
  [
    'a payment waiting for its contact',
    'transfer.sent',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com', status: 'AWAITING_CLAIM' },
    'ru',
    {
      title: 'Вы отправили деньги: anna@example.com',
      detail: 'Ждёт, пока получатель зарегистрируется',
      amount: `−20,00${NB}€`,
    },
  ],
  [
    'a payment received',
    'transfer.received',
    { ...PERSON_TRANSFER, note: 'Dinner', from_name: 'Mia W.' },
    'ru',
    { title: 'Mia W.: перевод вам', detail: 'Dinner', amount: `+20,00${NB}€` },
  ],
  [
    'a payment claimed',
    'transfer.claimed',
    { ...PERSON_TRANSFER, note: null, to_name: 'Anna S.' },
    'ru',
    {
      title: 'Anna S. получил(а) ваш перевод',
      detail: 'Получатель зарегистрировался и получил деньги',
      amount: `−20,00${NB}€`,
    },
  ],
  [
    'a payment back',
    'transfer.returned',
    { ...PERSON_TRANSFER, note: null, to_name: 'anna@example.com' },
    'ru',
    {
      title: 'Перевод вернулся к вам',
      detail: 'anna@example.com не получил(а) перевод за 7 дней',
      amount: `+20,00${NB}€`,
    },
  ],
  [
    'a request paid',
    'payment_request.paid',
    { ...PERSON_TRANSFER, note: 'Dinner', payer_name: 'Mia W.' },
    'ru',
    { title: 'Mia W. оплатил(а) ваш запрос', detail: 'Dinner', amount: `+20,00${NB}€` },
  ],
  [
    'a run short of money',
    'schedule.run_failed',
    { amount: '50.00', currency: 'EUR', reason: 'INSUFFICIENT_FUNDS', kind: 'transfer' },
    'ru',
    {
      title: 'Регулярный платёж не прошёл',
      detail: `Не хватило средств на 50,00${NB}€. Следующий платёж — по расписанию.`,
      failed: true,
    },
  ],
  [
    'a run skipped',
    'schedule.run_skipped',
    { amount: '50.00', currency: 'EUR', reason: 'PRICE_MOVED', kind: 'exchange' },
    'ru',
    {
      title: 'Регулярный обмен пропущен',
      detail: 'Курс ушёл дальше вашего предела. Следующий обмен — по расписанию.',
    },
  ],
]

describe('what a notification says', () => {
  it.each(CASES)('%s (%s) in %s', (_, kind, data, language, said) => {
    const t = language === 'en' ? en : ru
    expect(describeNotification({ kind, data }, t, language)).toEqual(said)
  })

  it('has a case for every kind, in both languages, and a place in the preferences', () => {
    for (const language of ['en', 'ru'] as const) {
      const covered = new Set(CASES.filter((c) => c[3] === language).map((c) => c[1]))
      expect(
        [...EVENT_KINDS].filter((kind) => !covered.has(kind)),
        language,
      ).toEqual([])
    }
  })

  it('says something of an event older or emptier than this version knows, with no placeholder left', () => {
    for (const kind of EVENT_KINDS) {
      for (const [t, language] of [
        [en, 'en'],
        [ru, 'ru'],
      ] as const) {
        const said = describeNotification({ kind, data: {} }, t, language)
        expect(said.title).not.toBe('')
        expect(`${said.title} ${said.detail}`).not.toMatch(/\{/)
      }
    }
    // The preferences list what may be muted; the always-told kinds are named in one line, and
    // the quiet ones (never pushed: nothing to mute) not at all.
    const listed = KIND_GROUPS.flatMap((group) => group.kinds)
    expect(listed.filter((kind) => alwaysTold(kind) || quiet(kind))).toEqual([])
    expect([...listed, ...EVENT_KINDS.filter(alwaysTold), ...QUIET_KINDS].sort()).toEqual(
      [...EVENT_KINDS].sort(),
    )
  })

  it.each([
    [
      { form_factor: 'PHYSICAL', last4: '4242', delivery_to: 'London, GB' },
      'Physical card ·· 4242, sent to London, GB',
    ],
    [{ form_factor: 'VIRTUAL', last4: '4242', delivery_to: null }, 'Virtual card ·· 4242'],
  ])('a new card says which and where it goes: %j', (data, detail) => {
    const said = describeNotification({ kind: 'card.issued', data }, en, 'en')
    expect(said).toEqual({ title: 'New card issued', detail })
  })

  it('a device turned on for notifications is named, else said to be unknown', () => {
    const kind = 'security.push_subscription_added'
    expect(describeNotification({ kind, data: { device: 'Chrome, macOS' } }, en, 'en').detail).toBe(
      'On Chrome, macOS',
    )
    expect(describeNotification({ kind, data: { device: null } }, en, 'en').detail).toBe(
      'On a device we can’t name',
    )
  })
})
