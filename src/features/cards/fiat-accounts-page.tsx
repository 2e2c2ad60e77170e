import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { useChosenWallet, WalletSelect } from '../../ui/wallet-select.tsx'
import { accountName, accountStatusLabel, cardCountLabel } from './labels.ts'
import { useOpenAccount } from './mutations.ts'
import { accountPagesQuery, programsQuery } from './queries.ts'
import './cards.css'

/** /accounts?wallet= — a wallet's fiat accounts, and opening one. */
export default function FiatAccountsPage() {
  const { t } = useI18n()
  const titleId = useId()
  const [, navigate] = useLocation()
  const { wallets, list, wallet } = useChosenWallet()

  const back = { href: href.cards(wallet ? { wallet } : {}), label: t('cards.back') }
  if (wallets.isPending) return <Pending paused={wallets.isPaused} />
  if (wallets.isError) {
    return (
      <LoadError
        error={wallets.error}
        what="wallet"
        back={back}
        onRetry={() => wallets.refetch()}
      />
    )
  }

  return (
    <section className="stack" aria-labelledby={titleId}>
      <PageHeader id={titleId} title={t('cards.accounts.title')} back={back} />
      {!wallet ? (
        <NoWalletYet lead={t('cards.noWallet')} />
      ) : (
        <>
          <WalletSelect
            wallets={list}
            value={wallet}
            onChange={(uuid) => navigate(href.fiatAccounts({ wallet: uuid }))}
          />
          <WalletAccounts key={wallet} wallet={wallet} />
          <OpenAccount key={`open-${wallet}`} wallet={wallet} />
        </>
      )}
    </section>
  )
}

function WalletAccounts(props: { wallet: string }) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const accounts = useInfiniteQuery(accountPagesQuery(props.wallet))
  const rows = accounts.data?.pages.flatMap((page) => page.data) ?? []

  if (accounts.isPending) return <Pending paused={accounts.isPaused} />
  if (accounts.isError && rows.length === 0) {
    return (
      <div className="stack">
        <ErrorSummary error={accounts.error} />
        <div>
          <Button variant="secondary" onClick={() => accounts.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      </div>
    )
  }
  if (rows.length === 0) return <p className="muted">{t('cards.accounts.empty')}</p>
  return (
    <>
      <ul className="account-rows" aria-label={t('cards.accounts.list')}>
        {rows.map((account) => (
          <li key={account.id}>
            <AccountRow account={account} />
          </li>
        ))}
      </ul>
      {accounts.isFetchNextPageError && <ErrorSummary error={accounts.error} />}
      {accounts.hasNextPage && (
        <div>
          <Button
            variant="secondary"
            busy={accounts.isFetchingNextPage}
            onClick={() => accounts.fetchNextPage()}
            {...server.disabledProps}
          >
            {accounts.isFetchingNextPage ? t('cards.tx.loadingMore') : t('cards.accounts.more')}
          </Button>
          {server.reason}
        </div>
      )}
    </>
  )
}

function AccountRow(props: { account: FiatAccount }) {
  const { t, language } = useI18n()
  const { account } = props
  const cards = account.cards?.length ?? 0
  return (
    <Link
      href={href.fiatAccount(account.id, { wallet: account.wallet_uuid })}
      className="account-row"
    >
      <span className="account-row-main">
        <span className="card-tx-title">{accountName(t, account)}</span>
        <span className="muted">
          {account.currency} · {cardCountLabel(t, cards)}
        </span>
      </span>
      <span className="account-row-side">
        <span>
          {formatMoney(language, {
            amount: account.balance,
            currency: account.currency,
            chain: null,
          })}
        </span>
        <span className={`account-status account-status-${account.status.toLowerCase()}`}>
          {accountStatusLabel(t, account.status)}
        </span>
      </span>
    </Link>
  )
}

/** Programs that open accounts cards can share: ACTIVE, sub-account type `balance`. */
const opensAccounts = (program: CardProgram) =>
  program.status === 'ACTIVE' && program.sub_account_type === 'balance'

function OpenAccount(props: { wallet: string }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const [, navigate] = useLocation()
  const server = useNeedsServer()
  const programs = useQuery(programsQuery())
  const open = useOpenAccount(props.wallet)
  const offered = programs.data?.data.filter(opensAccounts) ?? []
  const [chosen, setChosen] = useState('')
  const programId = offered.some((program) => program.id === chosen) ? chosen : offered[0]?.id
  // PROGRAM_NOT_FOUND / PROGRAM_ARCHIVED name /body/program_id.
  const fieldError =
    open.error instanceof ApiError &&
    (open.error.problem?.errors ?? []).some((item) => item.field === '/body/program_id')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!programId) return
    open.mutate(programId, {
      onSuccess: (account) =>
        navigate(href.fiatAccount(account.id, { wallet: account.wallet_uuid })),
    })
  }

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.accounts.open')}</h2>
      {programs.isPending ? (
        <Pending paused={programs.isPaused} />
      ) : programs.isError ? (
        <ErrorSummary error={programs.error} />
      ) : offered.length === 0 ? (
        <p className="muted">{t('cards.accounts.noPrograms')}</p>
      ) : (
        <form className="stack" onSubmit={submit} noValidate>
          <SelectField
            label={t('cards.new.program')}
            value={programId}
            onChange={(event) => {
              setChosen(event.target.value)
              open.reset()
            }}
            error={fieldError ? t('cards.accounts.programUnavailable') : undefined}
          >
            {offered.map((program) => (
              <option key={program.id} value={program.id}>
                {/* The account costs nothing; the fees are per card issued on it. */}
                {t('cards.accounts.programOption', {
                  name: program.name,
                  currency: program.currency,
                  issue: formatMoney(language, {
                    amount: program.fees.issue,
                    currency: program.currency,
                    chain: null,
                  }),
                  monthly: formatMoney(language, {
                    amount: program.fees.monthly,
                    currency: program.currency,
                    chain: null,
                  }),
                })}
              </option>
            ))}
          </SelectField>
          {open.isError && !fieldError && <ErrorSummary error={open.error} />}
          <div>
            <Button type="submit" busy={open.isPending} {...server.disabledProps}>
              {t('cards.accounts.openSubmit')}
            </Button>
            {server.reason}
          </div>
        </form>
      )}
    </section>
  )
}
