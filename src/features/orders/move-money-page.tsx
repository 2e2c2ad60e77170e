import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { useOffers } from '../../queries/tenant.ts'
import { ActivityIcon, PeopleIcon } from '../../ui/icons.tsx'
import { LinkList, type LinkRow } from '../../ui/link-list.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { ReceiptIcon } from '../../ui/screen-icons.tsx'
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
    {
      key: 'paySomeone',
      to: paths.paySomeone,
      icon: PeopleIcon,
      title: t('people.pay.title'),
      explain: t('move.paySomeone'),
    },
    {
      key: 'requests',
      to: paths.requests,
      icon: ReceiptIcon,
      title: t('people.requests.title'),
      explain: t('move.requests'),
    },
    {
      key: 'schedules',
      to: paths.schedules,
      icon: ActivityIcon,
      title: t('people.schedules.title'),
      explain: t('move.schedules'),
    },
    ...actions.map(
      (action): LinkRow => ({
        key: action.key,
        to: action.to,
        icon: action.icon,
        title: t(action.label),
        explain: t(action.explain),
      }),
    ),
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
        <LinkList rows={rows} />
      </nav>
    </div>
  )
}
