import { type ComponentType, useSyncExternalStore } from 'react'
import { Link, useLocation } from 'wouter'
import type { Product } from '../../contract/tenants.ts'
import type { MessageKey } from '../i18n/en.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { paths } from '../paths.ts'
import { offers, useTenantConfig } from '../queries/tenant.ts'
import { isTelegram } from '../telegram/launch.ts'
import {
  AccountsIcon,
  ActivityIcon,
  CardIcon,
  ChartIcon,
  CodeIcon,
  HomeIcon,
  MoveMoneyIcon,
  PeopleIcon,
  ProfileIcon,
  ShieldIcon,
} from '../ui/icons.tsx'

/** Where the side navigation takes over from the tab bar (docs/experience.md: desktop ≥ 1024 px). */
export const DESKTOP_QUERY = '(min-width: 1024px)'

type Key =
  | 'home'
  | 'cards'
  | 'move'
  | 'activity'
  | 'profile'
  | 'accounts'
  | 'counterparties'
  | 'insights'
  | 'verify'
  | 'developer'

interface Destination {
  key: Key
  href: string
  label: MessageKey
  icon: ComponentType<{ size?: number }>
  /** The paths (prefixes, `:param` for one segment) this destination is the home of. */
  owns: string[]
  /** On a phone, the tab that stands for it; the five tabs stand for themselves. */
  tab: Key
  /** Shown only where the tenant offers this product. */
  product?: Product
}

/**
 * The signed-in destinations: the five tabs (Home, Cards, Move money,
 * Activity, Profile), then what the side navigation adds on a desktop. On a
 * phone each of the extra four lives under a tab (Accounts under Cards, …),
 * which is marked current while it shows.
 */
export const DESTINATIONS: Destination[] = [
  {
    key: 'home',
    href: paths.home,
    label: 'nav.home',
    icon: HomeIcon,
    owns: ['/', '/wallets/:'],
    tab: 'home',
  },
  {
    key: 'cards',
    href: paths.cards,
    label: 'nav.cards',
    icon: CardIcon,
    owns: ['/cards'],
    tab: 'cards',
    product: 'cards',
  },
  {
    key: 'move',
    href: paths.move,
    label: 'nav.move',
    icon: MoveMoneyIcon,
    owns: ['/move', '/send', '/exchange', '/deposit', '/top-up'],
    tab: 'move',
  },
  {
    key: 'activity',
    href: paths.activity,
    label: 'nav.activity',
    icon: ActivityIcon,
    owns: ['/activity', '/orders', '/wallets/:/transactions'],
    tab: 'activity',
  },
  {
    key: 'profile',
    href: paths.profile,
    label: 'nav.profile',
    icon: ProfileIcon,
    owns: ['/profile'],
    tab: 'profile',
  },
  {
    key: 'accounts',
    href: paths.fiatAccounts,
    label: 'nav.accounts',
    icon: AccountsIcon,
    owns: ['/accounts'],
    tab: 'cards',
    product: 'cards',
  },
  {
    key: 'counterparties',
    href: paths.counterpartiesHome,
    label: 'nav.counterparties',
    icon: PeopleIcon,
    owns: ['/counterparties', '/wallets/:/counterparties'],
    tab: 'move',
  },
  {
    key: 'insights',
    href: paths.insights,
    label: 'nav.insights',
    icon: ChartIcon,
    owns: ['/insights'],
    tab: 'activity',
  },
  {
    key: 'verify',
    href: paths.verify,
    label: 'nav.verify',
    icon: ShieldIcon,
    owns: ['/verify'],
    tab: 'profile',
  },
  {
    key: 'developer',
    href: paths.developer,
    label: 'nav.developer',
    icon: CodeIcon,
    owns: ['/developer'],
    tab: 'profile',
  },
]

/** How well `prefix` owns `path`: its number of segments, or -1. `/` owns only `/`. */
function ownership(prefix: string, path: string): number {
  if (prefix === '/') return path === '/' ? 1 : -1
  const want = prefix.split('/').filter(Boolean)
  const have = path.split('/').filter(Boolean)
  if (have.length < want.length) return -1
  const fits = want.every((segment, index) => segment === ':' || segment === have[index])
  return fits ? want.length : -1
}

/** The destination a path belongs to: the one owning it with the longest prefix. */
export function destinationOf(path: string): Destination | undefined {
  let best: Destination | undefined
  let score = 0
  for (const destination of DESTINATIONS) {
    for (const prefix of destination.owns) {
      const found = ownership(prefix, path)
      if (found > score) {
        best = destination
        score = found
      }
    }
  }
  return best
}

/** Which link is marked current: on a desktop the destination itself, on a phone its tab. */
export function currentKey(path: string, desktop: boolean): Key | undefined {
  const destination = destinationOf(path)
  return desktop ? destination?.key : destination?.tab
}

function subscribeDesktop(listener: () => void) {
  const query = matchMedia(DESKTOP_QUERY)
  query.addEventListener('change', listener)
  return () => query.removeEventListener('change', listener)
}
const isDesktop = () => matchMedia(DESKTOP_QUERY).matches

/** Whether the side navigation shows (the viewport is desktop-wide); follows resizes. */
export function useDesktop(): boolean {
  return useSyncExternalStore(subscribeDesktop, isDesktop, () => false)
}

/**
 * The one navigation landmark: a bottom tab bar of five on a phone and a
 * tablet, a side navigation with all nine on a desktop (CSS lays out the
 * same links; the extra four are shown only there).
 */
export function Navigation() {
  const { t } = useI18n()
  const [location] = useLocation()
  // Inside Telegram the tab bar stays, whatever the width of the window.
  const desktop = useDesktop() && !isTelegram()
  const current = currentKey(location, desktop)
  const config = useTenantConfig()
  const shown = DESTINATIONS.filter((d) => !d.product || offers(config, d.product))
  const item = (destination: Destination) => {
    const Icon = destination.icon
    return (
      <li key={destination.key}>
        <Link
          href={destination.href}
          className="nav-link"
          aria-current={current === destination.key ? 'page' : undefined}
        >
          <Icon size={24} />
          <span className="nav-label">{t(destination.label)}</span>
        </Link>
      </li>
    )
  }
  return (
    <nav className="app-nav" aria-label={t('nav.main')}>
      <ul className="nav-list">{shown.filter((d) => d.tab === d.key).map(item)}</ul>
      <ul className="nav-list nav-list-more">{shown.filter((d) => d.tab !== d.key).map(item)}</ul>
    </nav>
  )
}
