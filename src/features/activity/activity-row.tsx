import type { CSSProperties } from 'react'
import { Link } from 'wouter'
import type { ActivityItem } from '../../../contract/activity.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { useDisplayValue } from '../../queries/display-value.ts'
import { CurrencyBadge } from '../../ui/currency-badge.tsx'
import { CardIcon, MoveMoneyIcon } from '../../ui/icons.tsx'
import { ArrowUpIcon, PlusIcon, ReceiptIcon, SwapIcon } from '../../ui/screen-icons.tsx'
import {
  type Avatar,
  activityTitle,
  avatarOf,
  type Figure,
  figures,
  type Perspective,
  signOf,
  statusText,
  timeOf,
  topUpWords,
} from './wording.ts'

const ICONS = {
  exchange: SwapIcon,
  send: ArrowUpIcon,
  transfer: MoveMoneyIcon,
  card: CardIcon,
  topUp: PlusIcon,
  fee: ReceiptIcon,
} as const

/** The row's picture: 40 px, decorative (the title says the same in words). */
export function ActivityAvatar(props: { avatar: Avatar; size?: 'row' | 'large' }) {
  const { avatar } = props
  const size = props.size === 'large' ? ' activity-avatar-large' : ''
  if (avatar.kind === 'currency') {
    return (
      <span className={`activity-avatar activity-avatar-currency${size}`} aria-hidden="true">
        <CurrencyBadge code={avatar.code} />
      </span>
    )
  }
  if (avatar.kind === 'initials') {
    return (
      <span
        className={`activity-avatar activity-avatar-initials${size}`}
        style={{ '--avatar-hue': avatar.hue } as CSSProperties}
        aria-hidden="true"
      >
        {avatar.text}
      </span>
    )
  }
  const Icon = ICONS[avatar.icon]
  return (
    <span className={`activity-avatar activity-avatar-icon${size}`} aria-hidden="true">
      <Icon size={props.size === 'large' ? 28 : 22} />
    </span>
  )
}

/** One amount as a row or the detail shows it: signed, toned, struck through when nothing moved. */
export function FigureText(props: { figure: Figure; className?: string }) {
  const { language } = useI18n()
  const { figure } = props
  const text = formatMoney(language, figure.money, { sign: signOf(figure.tone) })
  const className = [`activity-amount activity-amount-${figure.tone}`, props.className]
    .filter(Boolean)
    .join(' ')
  return figure.tone === 'failed' || figure.tone === 'void' ? (
    <s className={className}>{text}</s>
  ) : (
    <span className={className}>{text}</span>
  )
}

/**
 * One thing that happened, as a 64 px row that is one link to its detail: the
 * picture, what it was and its status (or its time once done), the amount
 * signed for its direction, and under it the other side of an exchange, what
 * a top-up gave the card, or the amount's value in the display currency.
 */
export function ActivityRow(props: { item: ActivityItem; perspective?: Perspective }) {
  const { t, language } = useI18n()
  const displayValue = useDisplayValue()
  const { item } = props
  const { primary, secondary } = figures(item, props.perspective)
  const status = statusText(t, item)
  const refundedInPart = item.status === 'complete' && item.refunded !== null
  const topUp = topUpWords(t, language, item)
  // A top-up's other side is said in words; the card's own feed shows what it got already.
  const toCard = props.perspective?.account ? undefined : topUp?.toCard
  const under = secondary ? undefined : (toCard ?? displayValue(primary.money))
  return (
    <Link
      href={href.activityItem(item.id)}
      className="activity-row"
      data-testid="activity-row"
      data-status={item.status}
    >
      <ActivityAvatar avatar={avatarOf(item)} />
      <span className="activity-row-text">
        <span className="activity-row-title">{activityTitle(t, item)}</span>
        <span
          className={
            item.status === 'failed' || item.status === 'declined'
              ? 'activity-row-sub activity-row-sub-failed'
              : 'activity-row-sub'
          }
        >
          {status ?? (
            <>
              <time dateTime={item.created_at}>{timeOf(language, item.created_at)}</time>
              {refundedInPart && ` · ${t('activity.status.partlyRefunded')}`}
            </>
          )}
          {item.dispute && ` · ${t(`activity.dispute.short.${item.dispute.status}`)}`}
          {topUp?.fee && ` · ${topUp.fee}`}
          {/* The person's own words name a payment best: "Rent for May", cut to the line. */}
          {item.note && ` · ${item.note}`}
        </span>
      </span>
      <span className="activity-row-amounts">
        <FigureText figure={primary} />
        {secondary ? (
          <FigureText figure={secondary} className="activity-row-under" />
        ) : (
          under && <span className="activity-row-under">{under}</span>
        )}
      </span>
    </Link>
  )
}
