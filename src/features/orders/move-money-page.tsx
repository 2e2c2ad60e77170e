import { Link } from 'wouter'
import { paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { useOffers } from '../../queries/tenant.ts'
import { ChevronRightIcon, PeopleIcon } from '../../ui/icons.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useMoneyActions } from './money-actions.tsx'

/**
 * /move — the Move money tab: every way money moves, one line each on what
 * it is for, and the people you pay.
 */
export default function MoveMoneyPage() {
  const { t } = useI18n()
  const actions = useMoneyActions()
  const fiat = useOffers('fiat')
  const crypto = useOffers('crypto')
  const counterparties = fiat || crypto
  const rows = [
    ...actions.map((action) => ({
      key: action.key,
      to: action.to,
      icon: action.icon,
      title: t(action.label),
      explain: t(action.explain),
    })),
    ...(counterparties
      ? [
          {
            key: 'counterparties',
            to: paths.counterpartiesHome,
            icon: PeopleIcon,
            title: t('nav.counterparties'),
            explain: t('move.counterparties'),
          },
        ]
      : []),
  ]
  return (
    <div className="stack">
      <PageHeader id="move-title" title={t('nav.move')} />
      <nav aria-labelledby="move-title" className="card card-flush">
        <ul className="link-list">
          {rows.map((row) => {
            const Icon = row.icon
            return (
              <li key={row.key}>
                <Link href={row.to} className="link-row">
                  <span className="link-row-icon" aria-hidden="true">
                    <Icon />
                  </span>
                  <span className="link-row-text">
                    <span className="link-row-title">{row.title}</span>
                    <span className="link-row-explain">{row.explain}</span>
                  </span>
                  <ChevronRightIcon size={20} />
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>
    </div>
  )
}
