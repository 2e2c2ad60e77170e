import { Link } from 'wouter'
import './orders.css'
import { href } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'

/**
 * The money actions in a row: links only, so it costs the home screen a few
 * hundred bytes — every screen behind them is its own lazy chunk. Offline
 * they still lead there; the screens say why they cannot act.
 */
export function MoneyActions(props: { wallet?: string }) {
  const { t } = useI18n()
  const wallet = props.wallet
  const actions = [
    { key: 'send', to: href.send({ wallet }), icon: '↑', label: t('orders.action.send') },
    {
      key: 'exchange',
      to: href.exchange({ wallet }),
      icon: '⇄',
      label: t('orders.action.exchange'),
    },
    { key: 'deposit', to: href.deposit({ wallet }), icon: '↓', label: t('orders.action.deposit') },
    { key: 'topUp', to: href.topUp({ wallet }), icon: '+', label: t('orders.action.topUp') },
    { key: 'history', to: href.orders({ wallet }), icon: '≡', label: t('orders.action.history') },
  ]
  return (
    <nav aria-label={t('orders.action.label')}>
      <ul className="money-actions">
        {actions.map((action) => (
          <li key={action.key}>
            <Link href={action.to} className="money-action">
              <span className="money-action-icon" aria-hidden="true">
                {action.icon}
              </span>
              {action.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
