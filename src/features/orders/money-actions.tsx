import { Link } from 'wouter'
import './orders.css'
import type { Product } from '../../../contract/tenants.ts'
import { href } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { offers, useTenantConfig } from '../../queries/tenant.ts'

/**
 * The money actions in a row: links only, so it costs the home screen a few
 * hundred bytes — every screen behind them is its own lazy chunk. Offline
 * they still lead there; the screens say why they cannot act. An action
 * shows when the tenant offers any of the products it `needs`.
 */
export function MoneyActions(props: { wallet?: string }) {
  const { t } = useI18n()
  const config = useTenantConfig()
  const wallet = props.wallet
  const moneyRails: Product[] = ['crypto', 'fiat']
  const actions = [
    {
      key: 'send',
      to: href.send({ wallet }),
      icon: '↑',
      label: t('orders.action.send'),
      needs: moneyRails,
    },
    {
      key: 'exchange',
      to: href.exchange({ wallet }),
      icon: '⇄',
      label: t('orders.action.exchange'),
      needs: ['exchange'] as Product[],
    },
    {
      key: 'deposit',
      to: href.deposit({ wallet }),
      icon: '↓',
      label: t('orders.action.deposit'),
      needs: moneyRails,
    },
    {
      key: 'topUp',
      to: href.topUp({ wallet }),
      icon: '+',
      label: t('orders.action.topUp'),
      needs: ['cards'] as Product[],
    },
    {
      key: 'history',
      to: href.orders({ wallet }),
      icon: '≡',
      label: t('orders.action.history'),
      needs: [] as Product[],
    },
  ].filter((action) => action.needs.length === 0 || action.needs.some((p) => offers(config, p)))
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
