import { useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending } from '../../ui/online.tsx'
import { BackLink } from '../../ui/page-header.tsx'
import { useChosenWallet } from '../../ui/wallet-select.tsx'
import { cleanAddress, serverAddressFaults } from './delivery.ts'
import { NewCardAddressStep } from './new-card-address-step.tsx'
import { NewCardChooseStep } from './new-card-choose-step.tsx'
import { NewCardReviewStep } from './new-card-review-step.tsx'
import { fiatAccountsQuery, programsQuery } from './queries.ts'
import { type NewCardChoices, useNewCardForm } from './use-new-card-form.ts'
import './cards.css'

/**
 * /cards/new?wallet=&account= — a virtual or physical card, on a new account
 * of its own or an existing one (`account` preselects it).
 */
export default function NewCardPage() {
  const { t } = useI18n()
  const { wallets, wallet } = useChosenWallet()
  const programs = useQuery(programsQuery())
  const params = new URLSearchParams(useSearch())
  const accounts = useQuery({ ...fiatAccountsQuery(wallet ?? ''), enabled: wallet !== undefined })

  const back = (
    <BackLink back={{ href: href.cards(wallet ? { wallet } : {}), label: t('cards.back') }} />
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
        <NoWalletYet lead={t('cards.noWallet')} />
      </div>
    )
  }
  if (!accounts.data) return <Pending paused={accounts.isPaused} />
  return (
    <div className="stack">
      {back}
      <IssueFlow
        wallet={wallet}
        preselectedAccount={params.get('account') ?? undefined}
        programs={programs.data.data.filter((program) => program.status === 'ACTIVE')}
        allPrograms={programs.data.data}
        accounts={accounts.data.data.filter(takesCards)}
      />
    </div>
  )
}

/** Accounts a new card can be issued on: ACTIVE, and not a stand-alone card's own. */
const takesCards = (account: FiatAccount) => account.status === 'ACTIVE' && !account.stand_alone

/**
 * Choose → (delivery address, for a physical card) → review with the fees →
 * issue. One request_id per set of choices: any change makes a new one, a
 * retry, a second tap or a reload after a lost answer on the same choices
 * sends the same one, so the server issues one card.
 */
function IssueFlow(props: NewCardChoices) {
  const form = useNewCardForm(props)
  const { step, setStep, focusHeading, issue, program, chosenFactor, physical, changed } = form
  const { funding, account, nickName, address } = form

  if (step === 'address') {
    return (
      <NewCardAddressStep
        focus={focusHeading}
        address={address}
        onChange={changed(form.setAddress)}
        serverFaults={serverAddressFaults(issue.error)}
        onBack={() => setStep('choose')}
        onNext={() => setStep('review')}
      />
    )
  }
  if (step === 'review' && program && chosenFactor) {
    return (
      <NewCardReviewStep
        focus={focusHeading}
        program={program}
        account={funding === 'account' ? account : undefined}
        formFactor={chosenFactor}
        nickName={nickName.trim()}
        address={physical ? cleanAddress(address) : undefined}
        wallet={props.wallet}
        error={issue.error}
        busy={issue.isPending}
        onBack={() => setStep(physical ? 'address' : 'choose')}
        onConfirm={form.confirm}
      />
    )
  }
  return (
    <NewCardChooseStep
      focus={focusHeading}
      funding={funding}
      onFunding={changed(form.setFunding)}
      standAlonePrograms={form.standAlonePrograms}
      programId={form.programId}
      onProgram={changed(form.setProgramId)}
      accounts={props.accounts}
      accountId={form.accountId}
      onAccount={changed(form.setAccountId)}
      formFactors={form.formFactors}
      formFactor={chosenFactor}
      onFormFactor={changed(form.setFormFactor)}
      nickName={nickName}
      onNickName={changed(form.setNickName)}
      ready={chosenFactor !== undefined && Boolean(funding === 'stand-alone' ? program : account)}
      onNext={() => setStep(physical ? 'address' : 'review')}
    />
  )
}
