import type { ComponentType } from 'react'
import { Link } from 'wouter'
import './orders.css'
import type { Product } from '../../../contract/tenants.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { offers, useTenantConfig } from '../../queries/tenant.ts'
import { ArrowDownIcon, ArrowUpIcon, ListIcon, PlusIcon, SwapIcon } from '../../ui/screen-icons.tsx'

export interface MoneyAction {
  key: 'send' | 'exchange' | 'deposit' | 'topUp' | 'history'
  to: string
  icon: ComponentType<{ size?: number }>
  label: MessageKey
  /** One line on the Move money screen: what it is for. */
  explain: MessageKey
}

/**
 * What a person can do with their money, as links: each screen behind them
 * is its own lazy chunk. Offline they still lead there; the screens say why
 * they cannot act. An action shows when the tenant offers any of the
 * products it needs.
 */
export function useMoneyActions(wallet?: string): MoneyAction[] {
  const config = useTenantConfig()
  const rails: Product[] = ['crypto', 'fiat']
  const all: (MoneyAction & { needs: Product[] })[] = [
    {
      key: 'send',
      to: href.send({ wallet }),
      icon: ArrowUpIcon,
      label: 'orders.action.send',
      explain: 'move.send',
      needs: rails,
    },
    {
      key: 'exchange',
      to: href.exchange({ wallet }),
      icon: SwapIcon,
      label: 'orders.action.exchange',
      explain: 'move.exchange',
      needs: ['exchange'],
    },
    {
      key: 'deposit',
      to: href.deposit({ wallet }),
      icon: ArrowDownIcon,
      label: 'orders.action.deposit',
      explain: 'move.deposit',
      needs: rails,
    },
    {
      key: 'topUp',
      to: href.topUp({ wallet }),
      icon: PlusIcon,
      label: 'orders.action.topUp',
      explain: 'move.topUp',
      needs: ['cards'],
    },
    {
      key: 'history',
      to: href.orders({ wallet }),
      icon: ListIcon,
      label: 'orders.action.history',
      explain: 'move.history',
      needs: [],
    },
  ]
  return all.filter(
    (action) => action.needs.length === 0 || action.needs.some((p) => offers(config, p)),
  )
}

/**
 * The money actions in a row (home, a wallet): round icons over short
 * labels, four at most so Russian words fit at 360 px. The order history is
 * not among them: it is the Activity tab's, and a link on a wallet's page.
 */
export function MoneyActions(props: { wallet?: string }) {
  const { t } = useI18n()
  const actions = useMoneyActions(props.wallet).filter((action) => action.key !== 'history')
  return (
    <nav aria-label={t('orders.action.label')}>
      <ul className="money-actions">
        {actions.map((action) => {
          const Icon = action.icon
          return (
            <li key={action.key}>
              <Link href={action.to} className="money-action">
                <span className="money-action-icon" aria-hidden="true">
                  <Icon />
                </span>
                <span className="money-action-label">{t(action.label)}</span>
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
