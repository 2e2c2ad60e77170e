import { useId } from 'react'
import type { DepositInstructions as Instructions } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { type CopyField, CopyFields, inFours } from '../../ui/copy-button.tsx'

/**
 * Where to send the bank transfer of a fiat deposit, each value with its own
 * copy button (named after it, so "Copy IBAN" is not one of six "Copy"s), and
 * the reference called out first: without it the transfer cannot be matched.
 */
export function DepositInstructions(props: { instructions: Instructions; decimals: number }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const { instructions: i } = props
  // The amount is copied as the bank wants it typed ("250.00"), shown as people read it.
  const rows: CopyField[] = [
    { label: t('orders.bank.reference'), value: i.reference },
    {
      label: t('orders.bank.amount'),
      value: i.amount,
      shown: formatMoney(language, { amount: i.amount, currency: i.currency }),
    },
    { label: t('orders.bank.beneficiary'), value: i.beneficiary },
    // Read in groups of four, as printed on cards and statements; copied without spaces.
    { label: t('orders.bank.iban'), value: i.iban, shown: i.iban ? inFours(i.iban) : undefined },
    { label: t('orders.bank.accountNumber'), value: i.account_number },
    { label: t('orders.bank.bic'), value: i.bic },
    { label: t('orders.bank.bankName'), value: i.bank_name },
    { label: t('orders.bank.bankAddress'), value: i.bank_address },
  ]
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('orders.bank.title')}</h2>
      <div className="alert alert-warning order-reference-warning" role="note">
        <strong>{t('orders.bank.referenceWarningTitle')}</strong>{' '}
        {t('orders.bank.referenceWarning', { reference: i.reference })}
      </div>
      <CopyFields rows={rows} />
      <p className="muted">{t('orders.bank.after')}</p>
    </section>
  )
}
