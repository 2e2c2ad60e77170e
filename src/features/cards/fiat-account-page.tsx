import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { Link, useSearch } from 'wouter'
import type { FiatAccount, FiatAccountBankDetails } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href, paths } from '../../paths.ts'
import { type CopyField, CopyFields, inFours } from '../../ui/copy-button.tsx'
import { type Back, LoadError } from '../../ui/load-error.tsx'
import { Pending } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { AutoTopUpSection } from './auto-top-up-section.tsx'
import { CardActivityList } from './card-activity-list.tsx'
import { CardLinks } from './card-visual.tsx'
import { accountName, accountStatusLabel } from './labels.ts'
import { accountQuery, accountTransactionsQuery } from './queries.ts'
import './cards.css'

/** /accounts/:id?wallet= — one fiat account: balance, status, its cards and transactions. */
export default function FiatAccountPage(props: { id: string }) {
  const { t } = useI18n()
  const wallet = new URLSearchParams(useSearch()).get('wallet') ?? undefined
  const account = useQuery(accountQuery(props.id, wallet))
  const back = {
    href: href.fiatAccounts(wallet ? { wallet } : {}),
    label: t('cards.accounts.back'),
  }

  if (account.isPending) return <Pending paused={account.isPaused} />
  if (account.isError) {
    return (
      <LoadError
        error={account.error}
        what="account"
        back={back}
        onRetry={() => account.refetch()}
      />
    )
  }
  return (
    <div className="stack">
      <Account account={account.data} back={back} />
    </div>
  )
}

function Account(props: { account: FiatAccount; back: Back }) {
  const { t, language } = useI18n()
  const cardsTitle = useId()
  const { account } = props
  const wallet = account.wallet_uuid
  const cards = account.cards ?? []
  const active = account.status === 'ACTIVE'
  return (
    <>
      <PageHeader title={accountName(t, account)} back={props.back} />
      <dl className="fields">
        <div className="field-row">
          <dt>{t('cards.balance')}</dt>
          <dd className="account-balance">
            {formatMoney(language, {
              amount: account.balance,
              currency: account.currency,
              chain: null,
            })}
          </dd>
        </div>
        <div className="field-row">
          <dt>{t('cards.accounts.status')}</dt>
          <dd>
            {accountStatusLabel(t, account.status)}
            {!active && (
              <span className="muted"> · {t(`cards.accountStatus.lead.${account.status}`)}</span>
            )}
          </dd>
        </div>
      </dl>
      {active && (
        <p className="row">
          <Link
            href={href.topUp({ wallet, account: account.id })}
            className="button button-secondary"
          >
            {t('cards.accounts.topUp')}
          </Link>
          {/* A stand-alone card's own account takes no other card (the server answers 422). */}
          {!account.stand_alone && (
            <Link
              href={href.newCard({ wallet, account: account.id })}
              className="button button-primary"
            >
              {t('cards.accounts.issue')}
            </Link>
          )}
        </p>
      )}
      <p>
        <Link
          href={href.statements({
            account: account.id,
            from: wallet,
            last4: account.bank_details?.iban.slice(-4) ?? account.account_last4,
          })}
          className="button button-secondary"
        >
          {t('cards.accounts.statement')}
        </Link>
      </p>
      {account.bank_details && <BankDetails details={account.bank_details} account={account} />}
      {account.sub_account_type === 'balance' && <AutoTopUpSection account={account} />}
      <section className="stack" aria-labelledby={cardsTitle}>
        <h2 id={cardsTitle}>{t('cards.accounts.cards')}</h2>
        {cards.length === 0 ? (
          <p className="muted">{t('cards.accounts.noCards')}</p>
        ) : (
          <CardLinks cards={cards} />
        )}
      </section>
      <CardActivityList
        title={t('cards.tx.title')}
        query={accountTransactionsQuery(wallet, account.id)}
        showCard
      />
    </>
  )
}

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
