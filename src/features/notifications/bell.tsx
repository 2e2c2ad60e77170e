import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { formatLocale } from '../../i18n/digits.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Icon, type IconProps } from '../../ui/icons.tsx'
import { unreadQuery } from './queries.ts'
import './notifications.css'

/** The most a badge shows; more reads "99+" (the label says the number). */
const BADGE_MAX = 99

/** Here, not in ../../ui/icons.tsx: the bell is a lazy chunk, and the first download need not carry it; only the bell draws it (shared with the notification centre, this module would be a chunk and a request of its own). */
const BellIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 9.5a6 6 0 0 1 12 0c0 4.5 1.5 6.5 2.5 7.5h-17c1-1 2.5-3 2.5-7.5Z" />
    <path d="M10 20a2.2 2.2 0 0 0 4 0" />
  </Icon>
)

/** The bell in the shell: a link to the notification centre with the unread count. */
export function NotificationBell(props: { href: string; className?: string }) {
  const { t, language } = useI18n()
  const unread = useQuery(unreadQuery()).data?.unread ?? 0
  // In the reader's digits, as every other number (۳۴ in Persian unless Latin ones are chosen).
  const count = new Intl.NumberFormat(formatLocale(language))
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
          {unread > BADGE_MAX ? `${count.format(BADGE_MAX)}+` : count.format(unread)}
        </span>
      )}
    </Link>
  )
}
