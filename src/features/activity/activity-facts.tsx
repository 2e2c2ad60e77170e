import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { ActivityDetail, ActivityItem } from '../../../contract/activity.ts'
import { declineWords } from '../../i18n/declines.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { type Language, type Translate, useI18n } from '../../i18n/i18n.tsx'
import { exactAmount, formatMoney, formatRate, isShortened } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { AddressText, CopyButton } from '../../ui/copy-button.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { AllowChannel } from './allow-channel.tsx'
import { shortAddress, statusWord, TYPE_WORDS } from './wording.ts'

/** An amount with every digit on a tap when the screen shows it shortened. */
function Amount(props: { money: ActivityItem['amount']; sign?: 'in' | 'out' }) {
  const { t, language } = useI18n()
  const text = formatMoney(language, props.money, { sign: props.sign })
  if (!isShortened(props.money)) return <span className="tabular">{text}</span>
  return (
    <details className="exact-amount">
      <summary className="tabular">{text}</summary>
      <span className="tabular">{formatMoney(language, props.money, { exact: true })}</span>{' '}
      <CopyButton text={exactAmount(props.money)} thing={t('activity.detail.exact')} />
    </details>
  )
}

const ORDER_FAILURES: Record<string, MessageKey> = {
  ADDRESS_REJECTED: 'orders.failure.ADDRESS_REJECTED',
  ACCOUNT_CLOSED: 'orders.failure.ACCOUNT_CLOSED',
}

/** Why it failed or was declined, in a sentence that says what happened to the money. */
export function failureWords(t: Translate, item: ActivityDetail): string | undefined {
  const code = item.failure_code
  if (!code) return undefined
  if (item.source.type === 'order') return t(ORDER_FAILURES[code] ?? 'orders.failure.other')
  // A payment to a contact nobody claimed: its only failure, and the money came back.
  if (item.source.type === 'transfer') return t('activity.transfer.notClaimed')
  const limit = item.card_transactions.find((record) => record.exceeded_limit)?.exceeded_limit
  return declineWords(t, code, limit, item.channel)
}

/** The item's facts in plain words, under its summary. */
export function Facts(props: { item: ActivityDetail }) {
  const { t } = useI18n()
  return (
    <section className="card stack" aria-labelledby="activity-facts">
      <h2 id="activity-facts" className="visually-hidden">
        {t('activity.detail.facts')}
      </h2>
      <FieldList rows={useFacts(props.item)} />
    </section>
  )
}

/** The plain-words lines: who, when, what it cost. */
function useFacts(item: ActivityDetail): [string, ReactNode][] {
  const { t, language } = useI18n()
  const rows: [string, ReactNode][] = [[t('activity.detail.what'), t(TYPE_WORDS[item.type])]]
  const incoming = item.direction === 'in'
  if (item.merchant) {
    const place = [item.merchant.city, item.merchant.country].filter(Boolean).join(', ')
    rows.push([
      t('activity.detail.merchant'),
      place ? `${item.merchant.name} · ${place}` : item.merchant.name,
    ])
  }
  if (item.counterparty_name) {
    rows.push([
      incoming ? t('activity.detail.from') : t('activity.detail.to'),
      item.counterparty_name,
    ])
  }
  if (item.note) rows.push([t('activity.detail.note'), item.note])
  if (item.address) {
    rows.push([
      item.type === 'deposit' && item.amount.chain !== null
        ? t('activity.detail.depositAddress')
        : incoming
          ? t('activity.detail.fromAccount')
          : t('activity.detail.toAccount'),
      <span key="address" className="copy-line">
        <AddressText
          value={item.address}
          shown={item.address.length > 34 ? shortAddress(item.address) : undefined}
        />
        <CopyButton text={item.address} />
      </span>,
    ])
  }
  if (item.card_last4) {
    rows.push([
      t('activity.detail.card'),
      item.card_id ? (
        <Link key="card" href={href.card(item.card_id)}>
          {t('activity.detail.cardEnding', { last4: item.card_last4 })}
        </Link>
      ) : (
        t('activity.detail.cardEnding', { last4: item.card_last4 })
      ),
    ])
  }
  rows.push([t('activity.detail.when'), formatDateTime(language, item.created_at)])
  rows.push([t('activity.detail.status'), statusWord(t, item)])
  if (item.dispute) {
    rows.push([t('activity.dispute.status'), t(`activity.dispute.status.${item.dispute.status}`)])
  }
  const failure = failureWords(t, item)
  if (failure) {
    const fix =
      item.failure_code === 'CHANNEL_BLOCKED' && item.channel && item.card_id ? (
        <AllowChannel cardId={item.card_id} channel={item.channel} />
      ) : null
    rows.push([
      t('activity.detail.why'),
      fix ? (
        <span key="why" className="stack activity-why">
          {failure}
          {fix}
        </span>
      ) : (
        failure
      ),
    ])
  }
  if (item.confirmations !== null && item.required_confirmations !== null) {
    rows.push([
      t('activity.detail.confirmations'),
      t('activity.detail.confirmationsValue', {
        count: item.confirmations,
        of: item.required_confirmations,
      }),
    ])
  }
  const own = item.direction === 'own'
  if (item.type === 'card_top_up') {
    rows.push(...topUpFacts(t, language, item))
    if (item.reference) rows.push([t('activity.detail.reference'), item.reference])
    return rows
  }
  rows.push([
    own
      ? t('activity.detail.paid')
      : incoming
        ? t('activity.detail.received')
        : t('activity.detail.amount'),
    <Amount key="amount" money={item.amount} />,
  ])
  if (item.fee) rows.push([t('activity.detail.fee'), <Amount key="fee" money={item.fee} />])
  if (item.refunded) {
    rows.push([t('activity.detail.refunded'), <Amount key="refunded" money={item.refunded} />])
  }
  if (!incoming && (item.fee || item.refunded)) {
    rows.push([t('activity.detail.total'), <Amount key="total" money={item.total} />])
  }
  const rate = rateRow(t, language, item)
  if (rate) rows.push(rate)
  if (own && item.received) {
    rows.push([t('activity.detail.arrived'), <Amount key="received" money={item.received} />])
  }
  if (item.reference) rows.push([t('activity.detail.reference'), item.reference])
  return rows
}

/** The rate an item converted at, when what arrived is in another currency. */
function rateRow(t: Translate, language: Language, item: ActivityItem): [string, ReactNode] | null {
  if (!item.rate || !item.received || item.received.currency === item.amount.currency) return null
  const { rate } = item
  return [
    t('activity.detail.rate'),
    formatRate(language, { from: item.amount.currency, to: item.received.currency, rate }),
  ]
}

/**
 * A top-up as one movement: what the person gave (fee included), the fee, the
 * rate when it converted, and what the card got.
 */
function topUpFacts(t: Translate, language: Language, item: ActivityItem): [string, ReactNode][] {
  const rows: [string, ReactNode][] = [
    [t('activity.detail.gave'), <Amount key="gave" money={item.total} />],
  ]
  if (item.fee) rows.push([t('activity.detail.fee'), <Amount key="fee" money={item.fee} />])
  const rate = rateRow(t, language, item)
  if (rate) rows.push(rate)
  if (item.received) {
    rows.push([t('activity.detail.cardGot'), <Amount key="got" money={item.received} />])
  }
  return rows
}
