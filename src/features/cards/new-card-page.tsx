import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import type { CardFormFactor } from '../../../contract/cards.ts'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { href } from '../../app/paths.ts'
import { formatMoney } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { walletsQuery } from '../../queries/wallets.ts'
import { Button, SelectField, TextField } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { formFactorLabel } from './labels.ts'
import { useIssueCard } from './mutations.ts'
import { fiatAccountsQuery, programsQuery } from './queries.ts'
import './cards.css'

type Funding = 'stand-alone' | 'account'

/** /cards/new?wallet= — a virtual or physical card, on a new account of its own or an existing one. */
export default function NewCardPage() {
  const { t } = useI18n()
  const wallets = useQuery(walletsQuery())
  const programs = useQuery(programsQuery())
  const asked = new URLSearchParams(useSearch()).get('wallet') ?? undefined
  const wallet =
    wallets.data?.data.find((item) => item.uuid === asked)?.uuid ?? wallets.data?.data[0]?.uuid
  const accounts = useQuery({ ...fiatAccountsQuery(wallet ?? ''), enabled: wallet !== undefined })

  const back = (
    <p>
      <Link href={href.cards(wallet ? { wallet } : {})}>← {t('cards.back')}</Link>
    </p>
  )
  const failed = wallets.error ?? programs.error ?? accounts.error
  if (failed) {
    return (
      <div className="stack">
        {back}
        <ErrorSummary error={failed} />
      </div>
    )
  }
  if (!wallets.data || !programs.data) {
    return <Pending paused={wallets.isPaused || programs.isPaused} />
  }
  if (!wallet) {
    return (
      <div className="stack">
        {back}
        <p>{t('cards.noWallet')}</p>
      </div>
    )
  }
  if (!accounts.data) return <Pending paused={accounts.isPaused} />
  return (
    <div className="stack">
      {back}
      <IssueForm
        wallet={wallet}
        programs={programs.data.data.filter((program) => program.status === 'ACTIVE')}
        allPrograms={programs.data.data}
        accounts={accounts.data.data.filter((account) => account.status === 'ACTIVE')}
      />
    </div>
  )
}

function IssueForm(props: {
  wallet: string
  programs: CardProgram[]
  allPrograms: CardProgram[]
  accounts: FiatAccount[]
}) {
  const { t, language } = useI18n()
  const titleId = useId()
  const formId = useId()
  const [, navigate] = useLocation()
  const server = useNeedsServer()
  const issue = useIssueCard()
  const standAlonePrograms = props.programs.filter((p) => p.sub_account_type === 'prepaid')
  const [funding, setFunding] = useState<Funding>(
    standAlonePrograms.length > 0 || props.accounts.length === 0 ? 'stand-alone' : 'account',
  )
  const [programId, setProgramId] = useState(standAlonePrograms[0]?.id ?? '')
  const [accountId, setAccountId] = useState(props.accounts[0]?.id ?? '')
  const [formFactor, setFormFactor] = useState<CardFormFactor>('VIRTUAL')
  const [nickName, setNickName] = useState('')

  const account = props.accounts.find((item) => item.id === accountId)
  const program =
    funding === 'stand-alone'
      ? standAlonePrograms.find((item) => item.id === programId)
      : props.allPrograms.find((item) => item.id === account?.program_id)
  const formFactors = program?.form_factors ?? []
  const chosenFactor = formFactors.includes(formFactor) ? formFactor : formFactors[0]
  const ready = chosenFactor !== undefined && (funding === 'stand-alone' ? program : account)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!ready || !chosenFactor) return
    const nick = nickName.trim() || undefined
    const common = { form_factor: chosenFactor, ...(nick && { nick_name: nick }) }
    issue.mutate(
      funding === 'stand-alone'
        ? {
            kind: 'stand-alone',
            body: { wallet_uuid: props.wallet, program_id: programId, ...common },
          }
        : { kind: 'account', body: { fiat_account_id: accountId, ...common } },
      { onSuccess: (card) => navigate(href.card(card.id)) },
    )
  }

  return (
    <form className="stack" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h1 id={titleId}>{t('cards.new.title')}</h1>
      <fieldset className="stack">
        <legend>{t('cards.new.funding')}</legend>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={funding === 'stand-alone'}
            onChange={() => setFunding('stand-alone')}
          />
          {t('cards.new.standAlone')}
        </label>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={funding === 'account'}
            onChange={() => setFunding('account')}
          />
          {t('cards.new.onAccount')}
        </label>
      </fieldset>

      {funding === 'stand-alone' ? (
        standAlonePrograms.length === 0 ? (
          <p>{t('cards.new.noPrograms')}</p>
        ) : (
          <SelectField
            label={t('cards.new.program')}
            value={programId}
            onChange={(event) => setProgramId(event.target.value)}
          >
            {standAlonePrograms.map((item) => (
              <option key={item.id} value={item.id}>
                {t('cards.new.programOption', {
                  name: item.name,
                  currency: item.currency,
                  fee: formatMoney(language, item.fees.issue, item.currency),
                })}
              </option>
            ))}
          </SelectField>
        )
      ) : props.accounts.length === 0 ? (
        <p>{t('cards.new.noAccounts')}</p>
      ) : (
        <SelectField
          label={t('cards.new.account')}
          value={accountId}
          onChange={(event) => setAccountId(event.target.value)}
        >
          {props.accounts.map((item) => (
            <option key={item.id} value={item.id}>
              {t('cards.new.accountOption', {
                program: item.program_name,
                balance: formatMoney(language, item.balance, item.currency),
              })}
            </option>
          ))}
        </SelectField>
      )}

      {formFactors.length > 0 && (
        <fieldset className="stack">
          <legend>{t('cards.formFactor')}</legend>
          {formFactors.map((factor) => (
            <label key={factor} className="row">
              <input
                type="radio"
                name={`${formId}-form`}
                checked={chosenFactor === factor}
                onChange={() => setFormFactor(factor)}
              />
              {formFactorLabel(t, factor)}
            </label>
          ))}
        </fieldset>
      )}

      <TextField
        label={t('cards.new.nickName')}
        value={nickName}
        maxLength={64}
        onChange={(event) => setNickName(event.target.value)}
      />
      <ErrorSummary error={issue.error} />
      <div>
        <Button type="submit" busy={issue.isPending} disabled={!ready} {...server.disabledProps}>
          {t('cards.new.submit')}
        </Button>
        {server.reason}
      </div>
    </form>
  )
}
