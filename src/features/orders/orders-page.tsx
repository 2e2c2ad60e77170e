import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link, useLocation, useSearch } from 'wouter'
import type { Order, OrderStatus, OrderType } from '../../../contract/orders.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import {
  isDeposit,
  ORDER_STATUSES,
  ORDER_TYPES,
  orderStatusLabel,
  orderTypeLabel,
  statusTone,
  walletName,
} from './labels.ts'
import { useTargetText } from './order-target.tsx'
import { type OrderFilters, ordersQuery, walletsQuery } from './queries.ts'
import { PendingPlacementNotice } from './resume-placement.tsx'
import './orders.css'

/** /orders?wallet=&status=&type= — every order, newest first, filtered by wallet, status and type. */
export default function OrdersPage() {
  return <Orders />
}

/**
 * The filters live in the query string (replaced, not pushed, as they
 * change): back from an order finds the list as it was left.
 */
function useFilters(): [OrderFilters, (patch: Partial<OrderFilters>) => void] {
  const search = useSearch()
  const [, navigate] = useLocation()
  const params = new URLSearchParams(search)
  const status = params.get('status') as OrderStatus | null
  const type = params.get('type') as OrderType | null
  const filters: OrderFilters = {
    wallet: params.get('wallet') ?? undefined,
    status: status && ORDER_STATUSES.includes(status) ? status : undefined,
    type: type && ORDER_TYPES.includes(type) ? type : undefined,
  }
  const set = (patch: Partial<OrderFilters>) =>
    navigate(href.orders({ ...filters, ...patch }), { replace: true })
  return [filters, set]
}

function Orders() {
  const { t } = useI18n()
  const [filters, set] = useFilters()
  const wallets = useQuery(walletsQuery())
  const orders = useInfiniteQuery(ordersQuery(filters))
  const server = useNeedsServer()
  const rows = orders.data?.pages.flatMap((page) => page.data) ?? []
  // Known once the last page is in (the server counts a long history only when asked).
  const total = orders.data?.pages.at(-1)?.total
  const filtered = Boolean(filters.status || filters.type)

  return (
    <div className="stack">
      <PageHeader
        title={t('orders.history.title')}
        back={
          filters.wallet
            ? { href: href.wallet(filters.wallet), label: t('orders.backToWallet') }
            : { href: href.activity(), label: t('nav.activity') }
        }
      />
      <PendingPlacementNotice />
      <fieldset className="filters">
        <legend>{t('history.filters')}</legend>
        <SelectField
          label={t('orders.wallet')}
          value={filters.wallet ?? ''}
          onChange={(event) => set({ wallet: event.target.value || undefined })}
        >
          <option value="">{t('orders.history.allWallets')}</option>
          {wallets.data?.data.map((wallet) => (
            <option key={wallet.uuid} value={wallet.uuid}>
              {walletName(t, wallet)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('history.status')}
          value={filters.status ?? ''}
          onChange={(event) =>
            set({ status: (event.target.value || undefined) as OrderStatus | undefined })
          }
        >
          <option value="">{t('history.any')}</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {orderStatusLabel(t, status)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('history.type')}
          value={filters.type ?? ''}
          onChange={(event) =>
            set({ type: (event.target.value || undefined) as OrderType | undefined })
          }
        >
          <option value="">{t('history.any')}</option>
          {ORDER_TYPES.map((type) => (
            <option key={type} value={type}>
              {orderTypeLabel(t, type)}
            </option>
          ))}
        </SelectField>
      </fieldset>
      {orders.isPending ? (
        <Pending paused={orders.isPaused} />
      ) : orders.isError && rows.length === 0 ? (
        <div className="stack">
          <ErrorSummary error={orders.error} />
          <Button variant="secondary" onClick={() => orders.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="muted">
          {filtered ? t('orders.history.emptyFiltered') : t('orders.history.empty')}
        </p>
      ) : (
        <>
          <ul className="order-rows" aria-label={t('orders.history.list')}>
            {rows.map((order) => (
              <li key={order.id} data-testid="order-row">
                <OrderRow order={order} />
              </li>
            ))}
          </ul>
          <p className="muted">
            {total === undefined
              ? t('history.countSoFar', { shown: rows.length })
              : t('history.count', { shown: rows.length, total })}
          </p>
          {orders.isFetchNextPageError && <ErrorSummary error={orders.error} />}
          {orders.hasNextPage && (
            <>
              <Button
                variant="secondary"
                busy={orders.isFetchingNextPage}
                onClick={() => orders.fetchNextPage()}
                {...server.disabledProps}
              >
                {orders.isFetchingNextPage ? t('history.loadingMore') : t('orders.history.more')}
              </Button>
              {server.reason}
            </>
          )}
        </>
      )}
    </div>
  )
}

function OrderRow(props: { order: Order }) {
  const { t, language } = useI18n()
  const { order } = props
  const incoming = isDeposit(order.order_type)
  const amount = incoming
    ? `+${formatMoney(language, { amount: order.to.amount, currency: order.to.currency })}`
    : `−${formatMoney(language, { amount: order.total, currency: order.from.currency })}`
  const tone = statusTone(order.status)
  const target = useTargetText(order)
  return (
    <Link href={href.order(order.id)} className="order-row">
      <span className="order-row-main">
        <span className="order-row-title">{orderTypeLabel(t, order.order_type)}</span>
        <span className="muted">{target}</span>
        <span className="muted">{formatDateTime(language, order.created_at)}</span>
      </span>
      <span className="order-row-side">
        <span className={incoming ? 'amount-deposit' : undefined}>{amount}</span>
        <span className={`order-status order-status-${tone}`}>
          {orderStatusLabel(t, order.status)}
        </span>
      </span>
    </Link>
  )
}
