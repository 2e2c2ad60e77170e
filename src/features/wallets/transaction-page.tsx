import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { AddressText, CopyButton } from '../../ui/copy-button.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { methodLabel, recordTypeLabel, statusLabel, transactionTypeLabel } from './labels.ts'
import { transactionQuery } from './queries.ts'

/** /wallets/:uuid/transactions/:tx — every field of one transaction. */
export default function TransactionPage(props: { walletUuid: string; tx: string }) {
  const { t, language } = useI18n()
  const transaction = useQuery(transactionQuery(props.walletUuid, props.tx))
  const back = { href: href.wallet(props.walletUuid), label: t('tx.back') }

  if (transaction.isPending) return <Pending paused={transaction.isPaused} />
  if (transaction.isError) {
    return (
      <LoadError
        error={transaction.error}
        what="transaction"
        back={back}
        onRetry={() => transaction.refetch()}
      />
    )
  }

  const tx = transaction.data
  const none = <span className="muted">{t('tx.none')}</span>
  const fields: [string, ReactNode][] = [
    [t('tx.amount'), formatMoney(language, { amount: tx.amount, currency: tx.currency })],
    [t('tx.statusLabel'), statusLabel(t, tx.status)],
    [t('tx.typeLabel'), transactionTypeLabel(t, tx.type)],
    [t('tx.methodLabel'), methodLabel(t, tx.method)],
    [t('tx.recordTypeLabel'), recordTypeLabel(t, tx.record_type)],
    [t('tx.currency'), tx.currency],
    [t('tx.chain'), tx.chain ?? none],
    [
      t('tx.address'),
      tx.address ? (
        <span key="address" className="stack">
          <AddressText value={tx.address} />
          <CopyButton text={tx.address} thing={t('tx.address')} />
        </span>
      ) : (
        none
      ),
    ],
    [
      t('tx.hash'),
      tx.tx_hash ? (
        <span key="hash" className="stack">
          <code className="address-text">{tx.tx_hash}</code>
          <CopyButton text={tx.tx_hash} thing={t('tx.hash')} />
        </span>
      ) : (
        none
      ),
    ],
    [t('tx.confirmations'), tx.confirmations ?? none],
    [t('tx.created'), formatDateTime(language, tx.created_at)],
    [t('tx.updated'), formatDateTime(language, tx.updated_at)],
    [t('tx.id'), <code key="id">{tx.uuid}</code>],
  ]

  return (
    <div className="stack">
      <PageHeader id="tx-title" title={t('tx.title')} back={back} />
      <section className="card stack" aria-labelledby="tx-title">
        <FieldList rows={fields} />
      </section>
    </div>
  )
}
