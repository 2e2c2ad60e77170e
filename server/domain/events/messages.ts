import { type OrderKind, orderKindOf, shortAddress } from '../../../contract/display-rules.ts'
import type { EventKind } from '../../../contract/events.ts'
import {
  autoTopUpMessage,
  controlDeclineLine,
  disputeMessage,
  lockdownMessage,
} from './control-wording.ts'

/*
 * What a push notification and a bot message say (issue 27): the activity
 * feed's words — who, what, how much — in the person's language, never the
 * ledger's ("Order completed €50.00 → €50.00"). The notification centre says
 * the same from the same payload in the app's catalogues
 * (src/features/notifications/describe.ts); a test holds each kind of both
 * to a table. Nothing here is cut: a push shows what fits, a bot message all.
 */

export type Language = 'en' | 'ru'

type Data = Record<string, unknown>
const text = (data: Data, key: string) => (typeof data[key] === 'string' ? data[key] : '')

// ---------------------------------------------------------------------------
// Amounts, as the app shows them (src/i18n/money.ts), from the decimal string

const MINUS = '\u2212'
const ISO_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'))
const DECIMAL = /^(\d+)(?:\.(\d*))?$/
/** A crypto amount keeps at most this many significant fraction digits, as on screen. */
const FRACTION_DIGITS = 8

/**
 * "€1,234.50", "1 234,50 €", "0.00101885 BTC", with "+" for money in and "−"
 * for money out. Fiat through Intl's currency style (a decimal string: no
 * float on the way), crypto its digits trimmed; empty when there is no amount.
 */
export function formatAmount(
  language: Language,
  amount: string,
  currency: string,
  sign?: 'in' | 'out',
): string {
  const match = DECIMAL.exec(amount.trim())
  if (!match || !currency) return ''
  const whole = match[1]!.replace(/^0+(?=\d)/, '')
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  const zero = /^0*$/.test(whole + fraction)
  const signed = zero ? '' : sign === 'in' ? '+' : sign === 'out' ? MINUS : ''
  if (ISO_CURRENCIES.has(currency.toUpperCase())) {
    const format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: currency.toUpperCase(),
    })
    return `${signed}${format.format(`${whole}.${fraction || '0'}` as Intl.StringNumericLiteral)}`
  }
  const leading = whole === '0' ? fraction.length - fraction.replace(/^0+/, '').length : 0
  const shown = fraction.slice(0, leading + FRACTION_DIGITS).replace(/0+$/, '')
  const integer = new Intl.NumberFormat(language)
  const point = integer.formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  const digits = `${integer.format(BigInt(whole))}${shown ? `${point}${shown}` : ''}`
  return `${signed}${digits}\u00a0${currency}`
}

// ---------------------------------------------------------------------------
// Words

const WORDS = {
  en: {
    cardPayment: 'Card payment',
    cardSettled: 'Card payment settled',
    cardReversed: 'Reversed · nothing charged',
    cardRefund: 'Refund to your card',
    cardClosed: (last4: string) => `Card ·· ${last4} closed`,
    cardReturned: (amount: string) => `${amount} back in your wallet`,
    cardClosedLine: 'It can no longer pay.',
    feeIssue: 'Card issue fee',
    feeMonthly: 'Card monthly fee',
    feeDeclined: 'Not charged: not enough money on the card. The card still works.',
    declined: 'Declined',
    declines: {
      CARD_FROZEN: 'Declined: the card was frozen',
      CARD_BLOCKED: 'Declined: the card is blocked',
      CARD_INACTIVE: 'Declined: the card is not activated',
      CARD_CANCELED: 'Declined: the card is canceled',
      CARD_CLOSED: 'Declined: the card is closed',
      ACCOUNT_UNAVAILABLE: 'Declined: the card’s account is not active',
      LIMIT_EXCEEDED: 'Declined: over a spending limit',
      INSUFFICIENT_FUNDS: 'Declined: not enough money on the account',
      THREE_DS_FAILED: 'Declined: not confirmed with the card’s one-time code',
    } as Record<string, string>,
    deposit: (currency: string) => `${currency} deposit`,
    onItsWay: 'On its way',
    arrived: 'Arrived',
    exchange: (from: string, to: string) => `Exchange ${from} → ${to}`,
    exchangedFor: (paid: string) => `For ${paid}`,
    to: (name: string) => `To ${name}`,
    from: (name: string) => `From ${name}`,
    sent: (currency: string) => `Sent ${currency}`,
    sentLine: 'Sent',
    bankIn: 'Bank transfer in',
    topUpOf: (last4: string) => `Top-up of card ·· ${last4}`,
    topUp: 'Card account top-up',
    toCard: (amount: string) => `${amount} to the card`,
    fee: (amount: string) => `${amount} fee`,
    failures: {
      ADDRESS_REJECTED:
        'Didn’t go through: the network refused the address. The money is back in your wallet.',
      ACCOUNT_CLOSED:
        'Didn’t go through: the recipient’s account is closed. The money is back in your wallet.',
    } as Record<string, string>,
    failed: 'Didn’t go through. Any money set aside is back in your wallet.',
    placed: 'Placed. The money is set aside until it goes through.',
    awaitingTransfer: (reference: string) =>
      `Waiting for your bank transfer. Reference: ${reference}`,
    canceled: 'Cancelled. Anything set aside is back in your wallet.',
    identity: 'Identity verification',
    kycApproved: 'You’re verified',
    kycPending: 'Your documents are being checked',
    kycAttention: 'Your verification needs your attention',
    newDevice: 'Sign-in from a new device',
    newDeviceLine: 'If this wasn’t you, change your password in Sign-in and security.',
    passwordChanged: 'Password changed',
    passwordChangedLine: 'If this wasn’t you, reset your password from the sign-in screen.',
    apiKey: 'API key created',
    apiKeyRotated: 'API key given a new secret',
    apiKeyChanged: 'API key changed',
    webhookAdded: 'Webhook endpoint added',
    webhookSecret: 'Webhook given a new secret',
    webhookUrl: 'Webhook address changed',
    pushOn: 'Push notifications turned on',
    newDeviceName: 'A new device',
    passkeyAdded: 'Passkey added',
    passkeyRemoved: 'Passkey removed',
    cardIssued: 'Card issued',
    virtualCard: (last4: string) => `Virtual card ·· ${last4}`,
    physicalCard: (last4: string) => `Physical card ·· ${last4}`,
    deliveryTo: (card: string, to: string) => `${card}, sent to ${to}`,
    emailChanged: 'E-mail changed',
    phoneChanged: 'Phone changed',
    now: (masked: string) => `Now ${masked}`,
    youSent: (name: string, amount: string) => `You sent ${name} ${amount}`,
    waitingFor: (amount: string, name: string) => `${amount} waiting for ${name}`,
    waitingLine: 'Waiting for them to sign up (7 days)',
    sentYou: (name: string, amount: string) => `${name} sent you ${amount}`,
    inYourWallet: 'It’s in your wallet',
    gotYour: (name: string, amount: string) => `${name} got your ${amount}`,
    claimedLine: 'They signed up and got it',
    cameBack: (amount: string) => `${amount} came back to you`,
    notClaimed: (name: string) => `${name} didn’t claim it within 7 days`,
    paidRequest: (name: string, amount: string) => `${name} paid your request: ${amount}`,
    runFailed: 'A scheduled payment didn’t go through',
    runSkipped: 'A scheduled exchange was skipped',
    runShort: (amount: string) => `Not enough money for ${amount}. The next one runs as planned.`,
    runPriceMoved: 'The price moved past your limit. The next one runs as planned.',
    runRefused: (reason: string) => `It was refused (${reason}). The next one runs as planned.`,
    open: 'Open',
  },
  ru: {
    cardPayment: 'Оплата картой',
    cardSettled: 'Оплата проведена',
    cardReversed: 'Отменена · ничего не списано',
    cardRefund: 'Возврат на карту',
    cardClosed: (last4: string) => `Карта ·· ${last4} закрыта`,
    cardReturned: (amount: string) => `${amount} вернулись в кошелёк`,
    cardClosedLine: 'Ею больше нельзя платить.',
    feeIssue: 'Плата за выпуск карты',
    feeMonthly: 'Ежемесячная плата за карту',
    feeDeclined: 'Не списана: на карте недостаточно денег. Карта работает.',
    declined: 'Отклонена',
    declines: {
      CARD_FROZEN: 'Отклонена: карта была заморожена',
      CARD_BLOCKED: 'Отклонена: карта заблокирована',
      CARD_INACTIVE: 'Отклонена: карта не активирована',
      CARD_CANCELED: 'Отклонена: карта аннулирована',
      CARD_CLOSED: 'Отклонена: карта закрыта',
      ACCOUNT_UNAVAILABLE: 'Отклонена: счёт карты не активен',
      LIMIT_EXCEEDED: 'Отклонена: превышен лимит',
      INSUFFICIENT_FUNDS: 'Отклонена: на счёте недостаточно денег',
      THREE_DS_FAILED: 'Отклонена: не подтверждена одноразовым кодом карты',
    } as Record<string, string>,
    deposit: (currency: string) => `Пополнение ${currency}`,
    onItsWay: 'В пути',
    arrived: 'Зачислено',
    exchange: (from: string, to: string) => `Обмен ${from} → ${to}`,
    exchangedFor: (paid: string) => `За ${paid}`,
    to: (name: string) => name,
    from: (name: string) => name,
    sent: (currency: string) => `Отправка ${currency}`,
    sentLine: 'Отправлено',
    bankIn: 'Входящий банковский перевод',
    topUpOf: (last4: string) => `Пополнение карты ·· ${last4}`,
    topUp: 'Пополнение счёта карты',
    toCard: (amount: string) => `${amount} на карту`,
    fee: (amount: string) => `комиссия ${amount}`,
    failures: {
      ADDRESS_REJECTED: 'Не выполнено: сеть отклонила адрес. Деньги вернулись в кошелёк.',
      ACCOUNT_CLOSED: 'Не выполнено: счёт получателя закрыт. Деньги вернулись в кошелёк.',
    } as Record<string, string>,
    failed: 'Не выполнено. Зарезервированные деньги вернулись в кошелёк.',
    placed: 'Создано. Деньги зарезервированы до исполнения.',
    awaitingTransfer: (reference: string) =>
      `Ждём ваш банковский перевод. Назначение платежа: ${reference}`,
    canceled: 'Отменено. Зарезервированное вернулось в кошелёк.',
    identity: 'Проверка личности',
    kycApproved: 'Личность подтверждена',
    kycPending: 'Документы на проверке',
    kycAttention: 'Проверка требует вашего внимания',
    newDevice: 'Вход с нового устройства',
    newDeviceLine: 'Если это были не вы, смените пароль в разделе «Вход и безопасность».',
    passwordChanged: 'Пароль изменён',
    passwordChangedLine: 'Если это были не вы, сбросьте пароль на экране входа.',
    apiKey: 'Создан API-ключ',
    apiKeyRotated: 'Новый секрет API-ключа',
    apiKeyChanged: 'Изменён API-ключ',
    webhookAdded: 'Добавлен вебхук',
    webhookSecret: 'Новый секрет вебхука',
    webhookUrl: 'Изменён адрес вебхука',
    pushOn: 'Включены push-уведомления',
    newDeviceName: 'Новое устройство',
    passkeyAdded: 'Добавлен ключ доступа',
    passkeyRemoved: 'Удалён ключ доступа',
    cardIssued: 'Выпущена карта',
    virtualCard: (last4: string) => `Виртуальная карта ·· ${last4}`,
    physicalCard: (last4: string) => `Пластиковая карта ·· ${last4}`,
    deliveryTo: (card: string, to: string) => `${card}, доставка: ${to}`,
    emailChanged: 'Изменён e-mail',
    phoneChanged: 'Изменён телефон',
    now: (masked: string) => `Теперь ${masked}`,
    youSent: (name: string, amount: string) => `Вы отправили ${amount}: ${name}`,
    waitingFor: (amount: string, name: string) => `${amount} ждут получателя: ${name}`,
    waitingLine: 'Ждёт, пока получатель зарегистрируется (7 дней)',
    sentYou: (name: string, amount: string) => `${name}: перевод вам ${amount}`,
    inYourWallet: 'Уже в вашем кошельке',
    gotYour: (name: string, amount: string) => `${name}: перевод ${amount} получен`,
    claimedLine: 'Получатель зарегистрировался и получил деньги',
    cameBack: (amount: string) => `${amount} вернулись к вам`,
    notClaimed: (name: string) => `${name} не получил(а) перевод за 7 дней`,
    paidRequest: (name: string, amount: string) => `${name} оплатил(а) ваш запрос: ${amount}`,
    runFailed: 'Регулярный платёж не прошёл',
    runSkipped: 'Регулярный обмен пропущен',
    runShort: (amount: string) =>
      `Не хватило средств на ${amount}. Следующий платёж — по расписанию.`,
    runPriceMoved: 'Курс ушёл дальше вашего предела. Следующий обмен — по расписанию.',
    runRefused: (reason: string) => `Платёж отклонён (${reason}). Следующий — по расписанию.`,
    open: 'Открыть',
  },
} as const
type Words = (typeof WORDS)[Language]

const line = (...parts: string[]) => parts.filter(Boolean).join(' · ')

/** "To Anna Schmidt", "Exchange USDT → BTC", "Top-up of card ·· 3044": the feed's title of an order. */
function orderTitle(words: Words, kind: OrderKind | undefined, data: Data): string {
  const who = text(data, 'counterparty_name')
  switch (kind) {
    case 'exchange':
      return words.exchange(text(data, 'from_currency'), text(data, 'to_currency'))
    case 'deposit':
      return who ? words.from(who) : words.bankIn
    case 'topUp': {
      const last4 = text(data, 'card_last4')
      return last4 ? words.topUpOf(last4) : words.topUp
    }
    case 'send':
    case undefined: {
      const address = text(data, 'address')
      if (who) return words.to(who)
      if (address) return words.to(shortAddress(address))
      return words.sent(text(data, 'from_currency'))
    }
  }
}

/** What an order did, with its amount signed as the feed signs it. */
function orderLine(words: Words, language: Language, kind: OrderKind | undefined, data: Data) {
  const money = (key: string, currency: string, sign?: 'in' | 'out') =>
    formatAmount(language, text(data, key), text(data, currency), sign)
  // What left the person: the amount with its fee (older events carry no total).
  const paid = (sign?: 'out') =>
    text(data, 'total_amount')
      ? money('total_amount', 'from_currency', sign)
      : money('from_amount', 'from_currency', sign)
  switch (kind) {
    case 'exchange':
      return line(money('to_amount', 'to_currency', 'in'), words.exchangedFor(paid()))
    case 'deposit':
      return line(money('to_amount', 'to_currency', 'in'), words.arrived)
    case 'topUp': {
      const fee = /[1-9]/.test(text(data, 'fee_amount')) ? money('fee_amount', 'from_currency') : ''
      return line(
        paid('out'),
        words.toCard(money('to_amount', 'to_currency')),
        fee && words.fee(fee),
      )
    }
    case 'send':
    case undefined:
      return line(paid('out'), words.sentLine)
  }
}

/** What a push notification or a bot message says, in the person's language. */
export function eventMessage(
  kind: EventKind,
  data: Data,
  language: Language,
): { title: string; body: string } {
  const words = WORDS[language]
  const money = (key: string, sign?: 'in' | 'out') =>
    formatAmount(language, text(data, key), text(data, 'currency'), sign)
  const card = (sign?: 'in' | 'out') => money('amount', sign)
  const merchant = text(data, 'merchant_name')
  switch (kind) {
    case 'card.authorization.approved':
      return { title: merchant || words.cardPayment, body: line(card('out'), words.cardPayment) }
    case 'card.authorization.declined':
      return {
        title: merchant || words.cardPayment,
        body: line(
          card(),
          words.declines[text(data, 'reason')] ??
            controlDeclineLine(data, language) ??
            words.declined,
        ),
      }
    case 'card.authorization.reversed':
      return { title: merchant || words.cardPayment, body: line(card(), words.cardReversed) }
    case 'card.transaction.settled':
      return { title: merchant || words.cardPayment, body: line(card('out'), words.cardSettled) }
    case 'card.transaction.refunded':
      return { title: merchant || words.cardRefund, body: line(card('in'), words.cardRefund) }
    case 'card.closed': {
      const returned = formatAmount(
        language,
        text(data, 'returned_amount'),
        text(data, 'currency'),
        'in',
      )
      return {
        title: words.cardClosed(text(data, 'last4')),
        body: text(data, 'returned_amount') ? words.cardReturned(returned) : words.cardClosedLine,
      }
    }
    case 'card.fee.charged': {
      const title = data.fee_kind === 'ISSUE' ? words.feeIssue : words.feeMonthly
      if (data.paid === false) return { title, body: line(card(), words.feeDeclined) }
      return { title, body: card('out') }
    }
    case 'deposit.detected':
      return {
        title: words.deposit(text(data, 'currency')),
        body: line(card(), words.onItsWay),
      }
    case 'deposit.confirmed':
      return {
        title: words.deposit(text(data, 'currency')),
        body: line(card('in'), words.arrived),
      }
    case 'fiat.credit.received': {
      const sender = text(data, 'sender_name')
      return {
        title: sender ? words.from(sender) : words.bankIn,
        body: line(card('in'), text(data, 'remittance') || words.arrived),
      }
    }
    case 'order.created':
    case 'order.completed':
    case 'order.failed':
    case 'order.canceled': {
      const order = orderKindOf(text(data, 'type'))
      const title = orderTitle(words, order, data)
      if (kind === 'order.completed')
        return { title, body: orderLine(words, language, order, data) }
      const amount = formatAmount(language, text(data, 'from_amount'), text(data, 'from_currency'))
      if (kind === 'order.created') {
        // A deposit holds nothing: it waits for the transfer its reference names.
        const reference = text(data, 'deposit_reference')
        if (reference) return { title, body: line(amount, words.awaitingTransfer(reference)) }
        return { title, body: line(amount, words.placed) }
      }
      if (kind === 'order.canceled') return { title, body: line(amount, words.canceled) }
      return { title, body: line(amount, words.failures[text(data, 'reason')] ?? words.failed) }
    }
    case 'kyc.status_changed':
      return { title: words.identity, body: kycLine(words, text(data, 'status')) }
    case 'security.sign_in_new_device':
      return { title: words.newDevice, body: words.newDeviceLine }
    case 'security.password_changed':
      return { title: words.passwordChanged, body: words.passwordChangedLine }
    case 'security.api_key_created':
      return { title: words.apiKey, body: text(data, 'name') }
    case 'security.api_key_changed':
      return {
        title: data.change === 'rotated' ? words.apiKeyRotated : words.apiKeyChanged,
        body: text(data, 'name'),
      }
    case 'security.webhook_endpoint_added':
      return { title: words.webhookAdded, body: text(data, 'url') }
    case 'security.webhook_endpoint_changed':
      return {
        title: data.change === 'secret' ? words.webhookSecret : words.webhookUrl,
        body: text(data, 'url'),
      }
    case 'security.push_subscription_added':
      return { title: words.pushOn, body: text(data, 'device') || words.newDeviceName }
    case 'security.passkey_added':
      return { title: words.passkeyAdded, body: text(data, 'name') }
    case 'security.passkey_removed':
      return { title: words.passkeyRemoved, body: text(data, 'name') }
    case 'security.contact_changed':
      return {
        title: data.contact === 'email' ? words.emailChanged : words.phoneChanged,
        body: words.now(text(data, 'masked')),
      }
    case 'card.issued':
      return { title: words.cardIssued, body: issuedCard(words, data) }
    case 'transfer.sent':
      return data.status === 'AWAITING_CLAIM'
        ? { title: words.waitingFor(card(), text(data, 'to_name')), body: words.waitingLine }
        : { title: words.youSent(text(data, 'to_name'), card()), body: text(data, 'note') }
    case 'transfer.received':
      return {
        title: words.sentYou(text(data, 'from_name'), card()),
        body: text(data, 'note') || words.inYourWallet,
      }
    case 'transfer.claimed':
      return {
        title: words.gotYour(text(data, 'to_name'), card()),
        body: text(data, 'note') || words.claimedLine,
      }
    case 'transfer.returned':
      return { title: words.cameBack(card()), body: words.notClaimed(text(data, 'to_name')) }
    case 'payment_request.paid':
      return {
        title: words.paidRequest(text(data, 'payer_name'), card()),
        body: text(data, 'note') || words.inYourWallet,
      }
    case 'schedule.run_failed':
    case 'schedule.run_skipped':
      return {
        title: kind === 'schedule.run_failed' ? words.runFailed : words.runSkipped,
        body: runLine(words, text(data, 'reason'), card()),
      }
    case 'card.dispute.updated':
      return disputeMessage(data, language, money)
    case 'card.auto_top_up.placed':
    case 'card.auto_top_up.failed':
      return autoTopUpMessage(kind, data, language, money)
    case 'security.lockdown':
      return lockdownMessage(data, language)
  }
}

/** Why a scheduled run moved nothing, and that the schedule goes on. */
function runLine(words: Words, reason: string, amount: string): string {
  switch (reason) {
    case 'INSUFFICIENT_FUNDS':
      return words.runShort(amount)
    case 'PRICE_MOVED':
      return words.runPriceMoved
    default:
      return words.runRefused(reason)
  }
}

/** "Physical card ·· 4242, sent to London, GB", as the notification centre says it. */
function issuedCard(words: Words, data: Data): string {
  const last4 = text(data, 'last4')
  if (data.form_factor !== 'PHYSICAL') return words.virtualCard(last4)
  const to = text(data, 'delivery_to')
  return to ? words.deliveryTo(words.physicalCard(last4), to) : words.physicalCard(last4)
}

function kycLine(words: Words, status: string): string {
  switch (status) {
    case 'APPROVED':
      return words.kycApproved
    case 'PENDING':
    case 'HOLD':
      return words.kycPending
    default:
      return words.kycAttention
  }
}

/** The button under a bot message. */
export const openButtonText = (language: Language) => WORDS[language].open
