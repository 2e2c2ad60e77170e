import { useId } from 'react'
import type { SpendingGroup } from '../../../contract/insights.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Loading, type SpendingResult } from './insights-loading.tsx'

/** The month's biggest payees and merchants. */
export function Merchants(props: { query: SpendingResult; currency: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const data = props.query.data
  const top: SpendingGroup[] = data?.groups.slice(0, 5) ?? []
  return (
    <section className="card stack insights-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('insights.merchants')}</h2>
      {!data ? (
        <Loading query={props.query} />
      ) : top.length === 0 ? (
        <p className="muted">{t('insights.nothing')}</p>
      ) : (
        <ol className="insights-merchants">
          {top.map((group) => (
            <li key={group.key}>
              <span className="insights-name">{group.key}</span>
              <span className="muted">{t('insights.payments', { count: group.count })}</span>
              <span className="insights-amount">
                {formatMoney(language, {
                  amount: group.spending,
                  currency: data.currency,
                  chain: null,
                })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
