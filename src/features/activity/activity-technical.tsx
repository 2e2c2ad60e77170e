import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { ActivityDetail } from '../../../contract/activity.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { CopyButton } from '../../ui/copy-button.tsx'
import { FieldList } from '../../ui/field-list.tsx'

/** What the ledger wrote, for whoever wants it: ids, records and their hashes, one tap deeper. */
export function Technical(props: { detail: ActivityDetail }) {
  const { t, language } = useI18n()
  const { detail } = props
  const source =
    detail.source.type === 'order' ? (
      <Link href={href.order(detail.source.id)}>{t('activity.detail.openOrder')}</Link>
    ) : (
      <code>{detail.source.id}</code>
    )
  return (
    <details className="card technical" data-testid="technical-details">
      <summary>
        <h2>{t('activity.detail.technical')}</h2>
      </summary>
      <div className="stack">
        <FieldList
          rows={[
            [t('activity.detail.id'), <code key="id">{detail.id}</code>],
            [t(`activity.source.${detail.source.type}`), source],
            ...(detail.tx_hash
              ? ([
                  [
                    t('tx.hash'),
                    <span key="hash" className="stack">
                      <code className="address-text">{detail.tx_hash}</code>
                      <CopyButton text={detail.tx_hash} thing={t('tx.hash')} />
                    </span>,
                  ],
                ] as [string, ReactNode][])
              : []),
            [t('activity.detail.updated'), formatDateTime(language, detail.updated_at)],
          ]}
        />
        {detail.records.length > 0 && (
          <section className="stack" aria-labelledby="activity-records">
            <h3 id="activity-records">{t('activity.detail.records')}</h3>
            <ul className="technical-rows">
              {detail.records.map((record) => (
                <li key={record.uuid}>
                  <Link
                    href={href.transaction(record.wallet_uuid, record.uuid)}
                    className="technical-row"
                  >
                    <span className="technical-row-main">
                      <span>
                        {t(`tx.type.${record.type}`)} · {t(`tx.record.${record.record_type}`)}
                      </span>
                      <code className="muted technical-hash">{record.tx_hash ?? record.uuid}</code>
                    </span>
                    <span className="technical-row-side tabular">
                      {formatMoney(language, record, {
                        sign: record.type === 'deposit' ? 'in' : 'out',
                        exact: true,
                      })}
                      <span className="muted">{t(`tx.status.${record.status}`)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
        {detail.card_transactions.length > 0 && (
          <section className="stack" aria-labelledby="activity-card-records">
            <h3 id="activity-card-records">{t('activity.detail.cardRecords')}</h3>
            <ul className="technical-rows">
              {detail.card_transactions.map((record) => (
                <li key={record.id} className="technical-row">
                  <span className="technical-row-main">
                    <span>{t(`cards.tx.type.${record.type}`)}</span>
                    <code className="muted technical-hash">{record.id}</code>
                  </span>
                  <span className="technical-row-side tabular">
                    {formatMoney(language, {
                      amount: record.amount,
                      currency: record.currency,
                      chain: null,
                    })}
                    <span className="muted">{t(`activity.cardStatus.${record.status}`)}</span>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </details>
  )
}
