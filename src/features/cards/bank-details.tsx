import { useId } from 'react'
import { Link } from 'wouter'
import type { FiatAccount, FiatAccountBankDetails } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { type CopyField, CopyFields, inFours } from '../../ui/copy-button.tsx'

/**
 * What a person needs to pay into the account from any bank: its own IBAN,
 * the BIC, the bank and the holder, each with a copy button named after it
 * ("Copy IBAN", announced "Copied"). No reference: the IBAN is the account's.
 */
export function BankDetails(props: {
  details: FiatAccountBankDetails
  account: Pick<FiatAccount, 'currency' | 'status'>
  /** A part of a sheet ("Add money" on a card) rather than a card of a page. */
  part?: boolean
}) {
  const { t } = useI18n()
  const titleId = useId()
  const { details } = props
  const Heading = props.part ? 'h3' : 'h2'
  const rows: CopyField[] = [
    { label: t('cards.bank.holder'), value: details.account_holder },
    { label: t('cards.bank.iban'), value: details.iban, shown: inFours(details.iban) },
    { label: t('cards.bank.bic'), value: details.bic },
    { label: t('cards.bank.bankName'), value: details.bank_name },
  ]
  return (
    <section className={props.part ? 'stack sheet-part' : 'card stack'} aria-labelledby={titleId}>
      <Heading id={titleId}>{t('cards.bank.title')}</Heading>
      <p className="muted">{t('cards.bank.lead', { currency: props.account.currency })}</p>
      {props.account.status !== 'ACTIVE' && (
        <p className="alert alert-warning" role="note">
          {t('cards.bank.inactive')}
        </p>
      )}
      <CopyFields rows={rows} />
      {!details.account_holder && (
        <p className="muted">
          {t('cards.bank.noHolder')} <Link href={paths.profile}>{t('cards.bank.addName')}</Link>
        </p>
      )}
      <p className="muted">{t('cards.bank.noReference')}</p>
    </section>
  )
}
