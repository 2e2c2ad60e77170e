import { p256 } from '@noble/curves/nist.js'
import type { EventKind } from '../../../contract/events.ts'
import {
  autoTopUpMessage,
  controlDeclineLine,
  disputeMessage,
  lockdownMessage,
  wayOutLine,
} from './control-wording.ts'

/**
 * Pure rules of the event pipeline: which screen an event is about, what a
 * push or bot message says, who may hear it, and how deliveries retry.
 */

type Data = Record<string, unknown>
const text = (data: Data, key: string) => String(data[key] ?? '')
const seg = encodeURIComponent

/** The app screen an event opens (the notification centre, a push tap, the bot's button). */
export function eventPath(kind: EventKind, data: Data): string {
  switch (kind) {
    case 'card.authorization.approved':
    case 'card.authorization.declined':
    case 'card.transaction.settled':
    case 'card.transaction.refunded':
    case 'card.issued':
      return `/cards/${seg(text(data, 'card_id'))}`
    // The disputed payment, where its status and steps show.
    case 'card.dispute.updated':
      return typeof data.activity_id === 'string'
        ? `/activity/${seg(data.activity_id)}`
        : `/cards/${seg(text(data, 'card_id'))}`
    case 'card.auto_top_up.placed':
    case 'card.auto_top_up.failed':
      return `/accounts/${seg(text(data, 'fiat_account_id'))}`
    case 'deposit.detected':
    case 'deposit.confirmed':
      return `/wallets/${seg(text(data, 'wallet_id'))}/transactions/${seg(text(data, 'transaction_id'))}`
    case 'order.completed':
    case 'order.failed':
      return `/orders/${seg(text(data, 'order_id'))}`
    case 'kyc.status_changed':
      return '/verify'
    case 'security.api_key_created':
    case 'security.api_key_changed':
    case 'security.webhook_endpoint_added':
    case 'security.webhook_endpoint_changed':
      return '/developer'
    // Where the password is changed, devices are seen and other sessions are signed out.
    case 'security.push_subscription_added':
    case 'security.sign_in_new_device':
    case 'security.password_changed':
    case 'security.passkey_added':
    case 'security.passkey_removed':
    case 'security.lockdown':
      return '/profile/security'
    case 'security.contact_changed':
      return '/profile'
  }
}

export type Language = 'en' | 'ru'

const money = (data: Data) => `${text(data, 'amount')} ${text(data, 'currency')}`.trim()
const orderMoney = (data: Data) =>
  `${text(data, 'from_amount')} ${text(data, 'from_currency')} → ${text(data, 'to_amount')} ${text(data, 'to_currency')}`

/** What a push notification or a bot message says, in the person's language. */
export function eventMessage(
  kind: EventKind,
  data: Data,
  language: Language,
): { title: string; body: string } {
  const ru = language === 'ru'
  switch (kind) {
    case 'card.authorization.approved':
      return {
        title: ru ? 'Оплата картой' : 'Card payment',
        body: `${text(data, 'merchant_name')}: ${money(data)}`,
      }
    case 'card.authorization.declined': {
      const why = controlDeclineLine(data, language)
      return {
        title: ru ? 'Оплата картой отклонена' : 'Card payment declined',
        body: `${text(data, 'merchant_name')}: ${money(data)}${why ? `. ${why}` : ''}`,
      }
    }
    case 'card.transaction.settled':
      return {
        title: ru ? 'Оплата картой проведена' : 'Card payment settled',
        body: `${text(data, 'merchant_name')}: ${money(data)}`,
      }
    case 'card.transaction.refunded':
      return {
        title: ru ? 'Возврат на карту' : 'Card refund',
        body: `${text(data, 'merchant_name')}: +${money(data)}`,
      }
    case 'deposit.detected':
      return {
        title: ru ? 'Входящий перевод' : 'Incoming deposit',
        body: ru ? `${money(data)} в пути` : `${money(data)} on its way`,
      }
    case 'deposit.confirmed':
      return {
        title: ru ? 'Перевод зачислен' : 'Deposit received',
        body: ru ? `${money(data)} зачислено` : `${money(data)} arrived`,
      }
    case 'order.completed':
      return { title: ru ? 'Заявка исполнена' : 'Order completed', body: orderMoney(data) }
    case 'order.failed':
      return { title: ru ? 'Заявка не исполнена' : 'Order failed', body: orderMoney(data) }
    case 'kyc.status_changed':
      return {
        title: ru ? 'Проверка личности' : 'Identity verification',
        body: kycLine(String(data.status), ru),
      }
    case 'security.sign_in_new_device':
      return {
        title: ru ? 'Вход с нового устройства' : 'Sign-in from a new device',
        body: ru
          ? 'Если это были не вы, смените пароль в разделе «Вход и безопасность».'
          : 'If this wasn’t you, change your password in Sign-in and security.',
      }
    case 'security.password_changed':
      return {
        title: ru ? 'Пароль изменён' : 'Password changed',
        body: ru
          ? 'Если это были не вы, сбросьте пароль на экране входа.'
          : 'If this wasn’t you, reset your password from the sign-in screen.',
      }
    case 'security.api_key_created':
      return {
        title: ru ? 'Создан API-ключ' : 'API key created',
        body: text(data, 'name'),
      }
    case 'security.contact_changed':
      return {
        title:
          data.contact === 'email'
            ? ru
              ? 'Изменён e-mail'
              : 'E-mail changed'
            : ru
              ? 'Изменён телефон'
              : 'Phone changed',
        body: text(data, 'masked'),
      }
    case 'card.issued':
      return { title: ru ? 'Выпущена карта' : 'Card issued', body: issuedCard(data, ru) }
    case 'security.api_key_changed':
      return {
        title:
          data.change === 'rotated'
            ? ru
              ? 'Новый секрет API-ключа'
              : 'API key given a new secret'
            : ru
              ? 'Изменён API-ключ'
              : 'API key changed',
        body: text(data, 'name'),
      }
    case 'security.webhook_endpoint_added':
      return { title: ru ? 'Добавлен вебхук' : 'Webhook endpoint added', body: text(data, 'url') }
    case 'security.webhook_endpoint_changed':
      return {
        title:
          data.change === 'secret'
            ? ru
              ? 'Новый секрет вебхука'
              : 'Webhook given a new secret'
            : ru
              ? 'Изменён адрес вебхука'
              : 'Webhook address changed',
        body: text(data, 'url'),
      }
    case 'security.push_subscription_added':
      return {
        title: ru ? 'Включены push-уведомления' : 'Push notifications turned on',
        body: text(data, 'device') || (ru ? 'Новое устройство' : 'A new device'),
      }
    case 'security.passkey_added':
      return { title: ru ? 'Добавлен ключ доступа' : 'Passkey added', body: text(data, 'name') }
    case 'security.passkey_removed':
      return { title: ru ? 'Удалён ключ доступа' : 'Passkey removed', body: text(data, 'name') }
    case 'card.dispute.updated':
      return disputeMessage(data, language)
    case 'card.auto_top_up.placed':
    case 'card.auto_top_up.failed':
      return autoTopUpMessage(kind, data, language)
    case 'security.lockdown':
      return lockdownMessage(data, language)
  }
}

/** "Physical card •• 4242, to London, GB". */
function issuedCard(data: Data, ru: boolean): string {
  const last4 = `•• ${text(data, 'last4')}`
  const to = text(data, 'delivery_to')
  if (data.form_factor !== 'PHYSICAL')
    return `${ru ? 'Виртуальная карта' : 'Virtual card'} ${last4}`
  const card = `${ru ? 'Пластиковая карта' : 'Physical card'} ${last4}`
  return to ? `${card}, ${ru ? 'доставка' : 'to'} ${to}` : card
}

/**
 * The e-mail of a security event (alwaysTold kinds): the push message's words,
 * where to look, and what to do if it was not the person — the channel a thief
 * holding a token controls least, so it says how to take the account back.
 */
export function securityEmail(
  kind: EventKind,
  data: Data,
  language: Language,
  link: string,
  /** The one-time lockdown link, when the alert can mean theft (issue 30). */
  lockdownLink?: string,
): { subject: string; body: string } {
  const { title, body } = eventMessage(kind, data, language)
  const ru = language === 'ru'
  const advice = ru
    ? 'Если это были не вы, откройте «Вход и безопасность», завершите все другие сеансы и удалите то, что они добавили.'
    : 'If this wasn’t you, open Sign-in and security, sign out every other session and remove what they added.'
  return {
    subject: `Finplatform: ${title}`,
    body: [
      title,
      body,
      '',
      `${ru ? 'Подробнее' : 'See it'}: ${link}`,
      '',
      ...(lockdownLink ? [wayOutLine(language, lockdownLink), ''] : []),
      advice,
    ].join('\n'),
  }
}

function kycLine(status: string, ru: boolean): string {
  switch (status) {
    case 'APPROVED':
      return ru ? 'Личность подтверждена' : 'You’re verified'
    case 'PENDING':
    case 'HOLD':
      return ru ? 'Документы на проверке' : 'Your documents are being checked'
    default:
      return ru ? 'Нужно ваше внимание' : 'Your verification needs attention'
  }
}

/** The button under a bot message. */
export const openButtonText = (language: Language) => (language === 'ru' ? 'Открыть' : 'Open')

/** Base64url as PushSubscription.toJSON writes it; `=` padding tolerated. */
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/
const decode = (text: string) =>
  BASE64URL.test(text) ? Buffer.from(text.replace(/=+$/, ''), 'base64url') : undefined

/** A push subscription's key that cannot be one, and why. */
export interface PushKeyProblem {
  key: 'p256dh' | 'auth'
  message: string
}

/**
 * What is wrong with a push subscription's keys (RFC 8291 §3), or undefined:
 * `p256dh` the browser's P-256 public key, uncompressed (65 bytes, 0x04, a
 * point on the curve), `auth` its 16-byte secret. Checked when the browser
 * subscribes, so a key no browser made is refused then, not at every push.
 */
export function pushKeysProblem(keys: {
  p256dh: string
  auth: string
}): PushKeyProblem | undefined {
  const point = decode(keys.p256dh)
  if (point?.length !== 65 || point[0] !== 0x04) {
    return {
      key: 'p256dh',
      message: 'must be an uncompressed P-256 public key (65 bytes, base64url)',
    }
  }
  try {
    p256.Point.fromBytes(point)
  } catch {
    return { key: 'p256dh', message: 'is not a point on the P-256 curve' }
  }
  if (decode(keys.auth)?.length !== 16) {
    return { key: 'auth', message: 'must be 16 bytes, base64url' }
  }
  return undefined
}

/** An endpoint hears a kind when it is enabled and lists it (an empty list: every kind). */
export const endpointWants = (
  endpoint: { enabled: boolean; event_kinds: readonly string[] },
  kind: EventKind,
) => endpoint.enabled && (endpoint.event_kinds.length === 0 || endpoint.event_kinds.includes(kind))

/** Tries of one delivery before it is given up as failed (about 17 minutes of backoff). */
export const MAX_DELIVERY_ATTEMPTS = 8

/** Delay before the next try after the n-th failed one: 5 s, 10 s, 20 s … capped at 10 minutes. */
export const deliveryBackoffMs = (attempt: number) =>
  Math.min(5_000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000)

/** "ada@example.com" → "a***@example.com": enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '***'
  return `${email[0]}***${email.slice(at)}`
}

/** "+4915112345678" → "+49 *** 78". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 5) return '***'
  return `+${digits.slice(0, 2)} *** ${digits.slice(-2)}`
}
