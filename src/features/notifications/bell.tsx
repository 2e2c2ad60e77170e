import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { BellIcon } from '../../ui/icons.tsx'
import { unreadQuery } from './queries.ts'
import './notifications.css'

/** The most a badge shows; more reads "99+" (the label says the number). */
const BADGE_MAX = 99

/** The bell in the shell: a link to the notification centre with the unread count. */
export function NotificationBell(props: { href: string; className?: string }) {
  const { t } = useI18n()
  const unread = useQuery(unreadQuery()).data?.unread ?? 0
  return (
    <Link
      href={props.href}
      className={`icon-button bell ${props.className ?? ''}`}
      aria-label={
        unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')
      }
      data-testid="notification-bell"
    >
      <BellIcon />
      {unread > 0 && (
        <span className="bell-badge" aria-hidden="true">
          {unread > BADGE_MAX ? `${BADGE_MAX}+` : unread}
        </span>
      )}
    </Link>
  )
}
