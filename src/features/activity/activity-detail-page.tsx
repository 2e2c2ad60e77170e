import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { Link } from 'wouter'
import type { ActivityDetail, ActivityItem } from '../../../contract/activity.ts'
import { declineWords } from '../../i18n/declines.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { type Language, type Translate, useI18n } from '../../i18n/i18n.tsx'
import { exactAmount, formatMoney, formatRate, isShortened } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { activityQuery } from '../../queries/activity.ts'
import { useDisplayValue } from '../../queries/display-value.ts'
import { Alert, Button } from '../../ui/components.tsx'
import { AddressText, CopyButton } from '../../ui/copy-button.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { canShareFile, saveFile, shareFile } from '../../ui/save-file.ts'
import { ActivityAvatar, FigureText } from './activity-row.tsx'
import { AllowChannel } from './allow-channel.tsx'
import { DisputePayment } from './dispute-payment.tsx'
import './activity.css'
import { useMiniApp } from '../../telegram/mini-app.tsx'
import { receiptFile, receiptLink } from './receipt.ts'
import {
  activityTitle,
  avatarOf,
  eventWords,
  figures,
  shortAddress,
  statusWord,
  TYPE_WORDS,
  topUpWords,
} from './wording.ts'

/**
 * /activity/:id — one thing that happened, in plain words first: what, to or
 * from whom, when, where it stands (with its steps), the fee and the rate.
 * The ledger records with their hashes come last, folded under "Technical
 * details", for whoever wants them.
 */
export default function ActivityDetailPage(props: { id: string }) {
  const { t } = useI18n()
  const item = useQuery(activityQuery(props.id))
  const back = { href: href.activity(), label: t('activity.back') }

  if (item.isPending) return <Pending paused={item.isPaused} shape="page" />
  if (item.isError) {
    return (
      <LoadError error={item.error} what="activity" back={back} onRetry={() => item.refetch()} />
    )
  }
  const detail = item.data
  return (
    <div className="stack">
      <PageHeader id="activity-title" title={activityTitle(t, detail)} back={back} />
      <Summary item={detail} />
      <Facts item={detail} />
      <DisputePayment item={detail} />
      <Progress detail={detail} />
      <Receipt id={detail.id} />
      <Technical detail={detail} />
    </div>
  )
}

/** The item at the top, under its name: its picture, the amount large, its status. */
function Summary(props: { item: ActivityItem }) {
  const { t, language } = useI18n()
  const displayValue = useDisplayValue()
  const { item } = props
  const { primary, secondary } = figures(item)
  const under = secondary
    ? undefined
    : (topUpWords(t, language, item)?.toCard ?? displayValue(primary.money))
  const tone =
    item.status === 'failed' || item.status === 'declined'
      ? 'failed'
      : item.status === 'pending'
        ? 'pending'
        : item.status === 'complete'
          ? 'complete'
          : 'void'
  return (
    <section className="card activity-summary" aria-labelledby="activity-title">
      <ActivityAvatar avatar={avatarOf(item)} size="large" />
      <p className="activity-summary-amount" data-testid="activity-amount">
        <FigureText figure={primary} />
      </p>
      {secondary && (
        <p className="activity-summary-under">
          <FigureText figure={secondary} />
        </p>
      )}
      {under && <p className="activity-summary-under muted">{under}</p>}
      <p className={`status-chip status-chip-${tone}`} data-testid="activity-status">
        {statusWord(t, item)}
      </p>
    </section>
  )
}

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

function Facts(props: { item: ActivityDetail }) {
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

/** Its steps, oldest first, each with its time (and amount, for a card's clearing or refund). */
function Progress(props: { detail: ActivityDetail }) {
  const { t, language } = useI18n()
  const { detail } = props
  if (detail.timeline.length === 0) return null
  return (
    <section className="card stack" aria-labelledby="activity-progress">
      <h2 id="activity-progress">{t('activity.detail.progress')}</h2>
      <ol className="activity-timeline">
        {detail.timeline.map((event, index) => {
          const failed = event.status === 'failed' || event.status === 'declined'
          return (
            <li
              // One step per time: a status may come twice (a retry), its moment does not.
              key={`${event.code}-${event.at}`}
              className={failed ? 'activity-step activity-step-failed' : 'activity-step'}
              aria-current={index === detail.timeline.length - 1 ? 'step' : undefined}
            >
              <span className="activity-step-mark" aria-hidden="true">
                {failed ? '✕' : '✓'}
              </span>
              <span className="activity-step-text">
                <span>{eventWords(t, event.code, event.status, detail.type)}</span>
                <span className="muted">
                  <time dateTime={event.at}>{formatDateTime(language, event.at)}</time>
                  {event.amount && ` · ${formatMoney(language, event.amount)}`}
                </span>
              </span>
            </li>
          )
        })}
      </ol>
    </section>
  )
}

/** What the ledger wrote, for whoever wants it: ids, records and their hashes, one tap deeper. */
function Technical(props: { detail: ActivityDetail }) {
  const { t, language } = useI18n()
  const { detail } = props
  const source =
    detail.source.type === 'order' ? (
      <Link href={href.order(detail.source.id)}>{t('activity.detail.openOrder')}</Link>
    ) : (
      <code>{detail.source.id}</code>
    )
  return (
    <details className="card technical" data-testid="technical-details">
      <summary>
        <h2>{t('activity.detail.technical')}</h2>
      </summary>
      <div className="stack">
        <FieldList
          rows={[
            [t('activity.detail.id'), <code key="id">{detail.id}</code>],
            [t(`activity.source.${detail.source.type}`), source],
            ...(detail.tx_hash
              ? ([
                  [
                    t('tx.hash'),
                    <span key="hash" className="stack">
                      <code className="address-text">{detail.tx_hash}</code>
                      <CopyButton text={detail.tx_hash} thing={t('tx.hash')} />
                    </span>,
                  ],
                ] as [string, ReactNode][])
              : []),
            [t('activity.detail.updated'), formatDateTime(language, detail.updated_at)],
          ]}
        />
        {detail.records.length > 0 && (
          <section className="stack" aria-labelledby="activity-records">
            <h3 id="activity-records">{t('activity.detail.records')}</h3>
            <ul className="technical-rows">
              {detail.records.map((record) => (
                <li key={record.uuid}>
                  <Link
                    href={href.transaction(record.wallet_uuid, record.uuid)}
                    className="technical-row"
                  >
                    <span className="technical-row-main">
                      <span>
                        {t(`tx.type.${record.type}`)} · {t(`tx.record.${record.record_type}`)}
                      </span>
                      <code className="muted technical-hash">{record.tx_hash ?? record.uuid}</code>
                    </span>
                    <span className="technical-row-side tabular">
                      {formatMoney(language, record, {
                        sign: record.type === 'deposit' ? 'in' : 'out',
                        exact: true,
                      })}
                      <span className="muted">{t(`tx.status.${record.status}`)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
        {detail.card_transactions.length > 0 && (
          <section className="stack" aria-labelledby="activity-card-records">
            <h3 id="activity-card-records">{t('activity.detail.cardRecords')}</h3>
            <ul className="technical-rows">
              {detail.card_transactions.map((record) => (
                <li key={record.id} className="technical-row">
                  <span className="technical-row-main">
                    <span>{t(`cards.tx.type.${record.type}`)}</span>
                    <code className="muted technical-hash">{record.id}</code>
                  </span>
                  <span className="technical-row-side tabular">
                    {formatMoney(language, {
                      amount: record.amount,
                      currency: record.currency,
                      chain: null,
                    })}
                    <span className="muted">{t(`activity.cardStatus.${record.status}`)}</span>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </details>
  )
}

/** The item as a PDF receipt: saved, or shared where the device shares files. */
function Receipt(props: { id: string }) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const miniApp = useMiniApp()
  const [busy, setBusy] = useState<'save' | 'share' | undefined>()
  const [failed, setFailed] = useState(false)
  const hand = async (how: 'save' | 'share') => {
    setBusy(how)
    setFailed(false)
    try {
      const options = {
        language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
      }
      // Telegram fetches the file itself (and offers to save or share it): a link with no sign-in.
      if (miniApp?.downloadFile) {
        const link = await receiptLink(props.id, options)
        await miniApp.downloadFile(link.url, `receipt-${props.id}.pdf`)
        return
      }
      const file = await receiptFile(props.id, options)
      if (how === 'share' && canShareFile(file)) await shareFile(file, t('activity.receipt.title'))
      else saveFile(file)
    } catch (error) {
      console.error('[activity] the receipt could not be handed over', error)
      setFailed(true)
    } finally {
      setBusy(undefined)
    }
  }
  return (
    <section className="card stack" aria-labelledby="activity-receipt">
      <h2 id="activity-receipt">{t('activity.receipt.title')}</h2>
      <p className="muted">{t('activity.receipt.lead')}</p>
      <div className="row activity-receipt-actions">
        <Button
          variant="secondary"
          busy={busy === 'save'}
          onClick={() => hand('save')}
          {...server.disabledProps}
        >
          {t('activity.receipt.download')}
        </Button>
        {!miniApp?.downloadFile && canShareFile() && (
          <Button
            variant="secondary"
            busy={busy === 'share'}
            onClick={() => hand('share')}
            {...server.disabledProps}
          >
            {t('activity.receipt.share')}
          </Button>
        )}
      </div>
      {server.reason}
      {failed && <Alert>{t('activity.receipt.failed')}</Alert>}
    </section>
  )
}
