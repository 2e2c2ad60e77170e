import { useQuery } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { Link } from 'wouter'
import { alwaysTold } from '../../../contract/event-kinds.ts'
import type { EventKind, Notification } from '../../../contract/events.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { CardIcon, CodeIcon, ShieldIcon } from '../../ui/icons.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { ArrowDownIcon, CheckIcon, ListIcon, SwapIcon } from '../../ui/screen-icons.tsx'
import { describeNotification, shortTime } from './describe.ts'
import { useMarkRead } from './mutations.ts'
import { notificationsQuery } from './queries.ts'
import './notifications.css'

const ICONS: Record<string, ComponentType<{ size?: number }>> = {
  card: CardIcon,
  deposit: ArrowDownIcon,
  order: SwapIcon,
  kyc: ShieldIcon,
  security: ShieldIcon,
}
/**
 * The developer area's kinds (keys, webhooks) show code; the rest their area's
 * icon. Not the bell's (features/notifications/bell.tsx): shared with this page,
 * it became a chunk and a request of its own on every signed-in first load.
 */
const iconOf = (kind: EventKind) =>
  /^security\.(api_key|webhook)/.test(kind) ? CodeIcon : (ICONS[kind.split('.')[0]!] ?? ListIcon)

/**
 * The notification centre: what happened, newest first, unread ones marked.
 * Each row opens the screen it is about and marks itself read on the way.
 */
export default function NotificationsPage() {
  const { t } = useI18n()
  const list = useQuery(notificationsQuery())
  const markRead = useMarkRead()

  if (list.isPending) return <Pending paused={list.isPaused} shape="rows" />
  if (list.isError) {
    return (
      <LoadError
        error={list.error}
        what="account"
        back={{ href: '/', label: t('missing.home') }}
        onRetry={() => void list.refetch()}
      />
    )
  }
  const { data, unread } = list.data
  // Security alerts stay unread until opened: "mark all" has nothing to do when only they are.
  const markable = unread > data.filter((item) => !item.read_at && alwaysTold(item.kind)).length
  return (
    <>
      <PageHeader
        id="notifications-title"
        title={t('notifications.title')}
        actions={
          markable && (
            <Button
              variant="quiet"
              onClick={() => markRead.mutate(undefined)}
              busy={markRead.isPending}
            >
              {t('notifications.markAllRead')}
            </Button>
          )
        }
      />
      {data.length === 0 ? (
        <section className="card empty-state" aria-labelledby="notifications-empty">
          <span className="empty-state-icon" aria-hidden="true">
            <CheckIcon />
          </span>
          <h2 id="notifications-empty">{t('notifications.empty')}</h2>
          <p className="muted">{t('notifications.emptyLead')}</p>
        </section>
      ) : (
        <section className="card card-flush" aria-labelledby="notifications-title">
          <ul className="link-list notification-list">
            {data.map((item) => (
              <NotificationRow
                key={item.id}
                item={item}
                onOpen={() => markRead.mutate([item.id])}
              />
            ))}
          </ul>
        </section>
      )}
    </>
  )
}

function NotificationRow(props: { item: Notification; onOpen: () => void }) {
  const { t, language } = useI18n()
  const { item } = props
  const Icon = iconOf(item.kind)
  const said = describeNotification(item, t, language)
  const unread = item.read_at === null
  return (
    <li className={unread ? 'notification notification-unread' : 'notification'}>
      <Link href={item.path} className="link-row" onClick={unread ? props.onOpen : undefined}>
        <span
          className={said.failed ? 'link-row-icon notification-icon-failed' : 'link-row-icon'}
          aria-hidden="true"
        >
          <Icon />
        </span>
        <span className="link-row-text">
          <span className="link-row-title">
            {unread && <span className="visually-hidden">{t('notifications.unread')}: </span>}
            {said.title}
          </span>
          {/* The amount under the title, not beside it: a phone leaves the words room to wrap whole. */}
          {said.amount && <span className="notification-amount">{said.amount}</span>}
          {said.detail && (
            <span className="link-row-explain notification-detail">{said.detail}</span>
          )}
        </span>
        <span className="notification-side">
          <time className="muted" dateTime={item.created_at}>
            {shortTime(language, item.created_at)}
          </time>
        </span>
        {unread && <span className="notification-dot" aria-hidden="true" />}
      </Link>
    </li>
  )
}
