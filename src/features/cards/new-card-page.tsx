import { useQuery } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import type { CardFormFactor } from '../../../contract/cards.ts'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { useClosingConfirmation, useHaptics, useMainButton } from '../../telegram/controls.tsx'
import type { MainButtonState } from '../../telegram/sdk.ts'
import { Button } from '../../ui/components.tsx'
import { useConfirmOnce } from '../../ui/confirm-once.ts'
import { useCountries } from '../../ui/countries.ts'
import { CountryPicker } from '../../ui/country-picker.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { NoWalletYet } from '../../ui/no-wallet.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { BackLink } from '../../ui/page-header.tsx'
import { useChosenWallet } from '../../ui/wallet-select.tsx'
import {
  type AddressFault,
  type AddressField,
  addressFaults,
  cleanAddress,
  type DeliveryAddress,
  MAX_LENGTH,
  serverAddressFaults,
} from './delivery.ts'
import { accountName, formFactorLabel } from './labels.ts'
import { useIssueCard } from './mutations.ts'
import { fiatAccountsQuery, programsQuery } from './queries.ts'
import './cards.css'

type Funding = 'stand-alone' | 'account'
type Step = 'choose' | 'address' | 'review'

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

const EMPTY_ADDRESS: DeliveryAddress = {
  recipient_name: '',
  line1: '',
  line2: '',
  city: '',
  postal_code: '',
  country: '',
}

/** The card issue flow's confirm-once scope (ui/confirm-once.ts). */
const CARD_ISSUE_SCOPE = 'cards.issue'

/**
 * Choose → (delivery address, for a physical card) → review with the fees →
 * issue. One request_id per set of choices: any change makes a new one, a
 * retry, a second tap or a reload after a lost answer on the same choices
 * sends the same one, so the server issues one card.
 */
function IssueFlow(props: {
  wallet: string
  preselectedAccount: string | undefined
  programs: CardProgram[]
  allPrograms: CardProgram[]
  accounts: FiatAccount[]
}) {
  const [, navigate] = useLocation()
  const issue = useIssueCard()
  const haptic = useHaptics()
  // In Telegram, closing the Mini App while the card is being issued asks first.
  useClosingConfirmation(issue.isPending)
  const standAlonePrograms = props.programs.filter((p) => p.sub_account_type === 'prepaid')
  const preselected = props.accounts.find((item) => item.id === props.preselectedAccount)
  const [step, setStepState] = useState<Step>('choose')
  // Set by the person's own move to another step, and only by it: the step
  // then opens at its heading. Derived from anything else (the error, say),
  // it would flip while they type and pull the focus out of the field.
  const [focusHeading, setFocusHeading] = useState(false)
  const setStep = (next: Step) => {
    setFocusHeading(true)
    setStepState(next)
  }
  const [funding, setFunding] = useState<Funding>(
    preselected || (standAlonePrograms.length === 0 && props.accounts.length > 0)
      ? 'account'
      : 'stand-alone',
  )
  const [programId, setProgramId] = useState(standAlonePrograms[0]?.id ?? '')
  const [accountId, setAccountId] = useState(preselected?.id ?? props.accounts[0]?.id ?? '')
  const [formFactor, setFormFactor] = useState<CardFormFactor>('VIRTUAL')
  const [nickName, setNickName] = useState('')
  const [address, setAddress] = useState<DeliveryAddress>(EMPTY_ADDRESS)
  const account = props.accounts.find((item) => item.id === accountId)
  const program =
    funding === 'stand-alone'
      ? standAlonePrograms.find((item) => item.id === programId)
      : props.allPrograms.find((item) => item.id === account?.program_id)
  const formFactors = program?.form_factors ?? []
  const chosenFactor = formFactors.includes(formFactor) ? formFactor : formFactors[0]
  const physical = chosenFactor === 'PHYSICAL'

  // What would be issued, without its key: the choice the key belongs to.
  const nick = nickName.trim() || undefined
  const common = {
    form_factor: chosenFactor,
    ...(nick && { nick_name: nick }),
    ...(physical && { delivery_address: cleanAddress(address) }),
  }
  const choice =
    funding === 'stand-alone'
      ? { kind: 'stand-alone', wallet_uuid: props.wallet, program_id: programId, ...common }
      : { kind: 'account', fiat_account_id: accountId, ...common }
  // One request_id per set of choices, latched while it is on its way and
  // kept in the tab across a reload until an answer settles it: the same
  // choices confirmed again after a lost answer send the same key, and the
  // server answers the card it issued instead of issuing (and charging) twice.
  const once = useConfirmOnce<typeof choice>(
    CARD_ISSUE_SCOPE,
    program && chosenFactor ? JSON.stringify(choice) : undefined,
  )

  /** A change of choice is another request: the last one's error goes. */
  const changed = <T,>(set: (value: T) => void) => {
    return (value: T) => {
      set(value)
      issue.reset()
    }
  }

  const confirm = () => {
    if (!program || !chosenFactor || !once.start(choice)) return
    const keyed = { ...common, form_factor: chosenFactor, request_id: once.requestId }
    issue.mutate(
      funding === 'stand-alone'
        ? {
            kind: 'stand-alone',
            body: { wallet_uuid: props.wallet, program_id: programId, ...keyed },
          }
        : { kind: 'account', body: { fiat_account_id: accountId, ...keyed } },
      {
        onSuccess: (card) => {
          haptic('success')
          // The flow ends on the new card offering to fund it: a new account holds nothing yet.
          navigate(href.card(card.id, { issued: '1' }))
        },
        onError: (error) => {
          haptic('error')
          // The server found fault with the address: back to it, the fields
          // marked; the first of them gets the focus, not the heading.
          if (physical && serverAddressFaults(error).length > 0) {
            setFocusHeading(false)
            setStepState('address')
          }
        },
        onSettled: (_card, error) => once.finish(error),
      },
    )
  }

  if (step === 'address') {
    return (
      <AddressStep
        focus={focusHeading}
        address={address}
        onChange={changed(setAddress)}
        serverFaults={serverAddressFaults(issue.error)}
        onBack={() => setStep('choose')}
        onNext={() => setStep('review')}
      />
    )
  }
  if (step === 'review' && program && chosenFactor) {
    return (
      <ReviewStep
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
        onConfirm={confirm}
      />
    )
  }
  return (
    <ChooseStep
      focus={focusHeading}
      funding={funding}
      onFunding={changed(setFunding)}
      standAlonePrograms={standAlonePrograms}
      programId={programId}
      onProgram={changed(setProgramId)}
      accounts={props.accounts}
      accountId={accountId}
      onAccount={changed(setAccountId)}
      formFactors={formFactors}
      formFactor={chosenFactor}
      onFormFactor={changed(setFormFactor)}
      nickName={nickName}
      onNickName={changed(setNickName)}
      ready={chosenFactor !== undefined && Boolean(funding === 'stand-alone' ? program : account)}
      onNext={() => setStep(physical ? 'address' : 'review')}
    />
  )
}

/**
 * A step's frame: the flow's title, the step's own heading, focused when the
 * step opens. In Telegram the MainButton carries the step's primary action
 * (`primary`): it submits the form, so it goes the way the step's own submit
 * button goes — checks, the in-flight latch and all.
 */
function StepFrame(props: {
  title: string
  focus: boolean
  primary: MainButtonState
  onSubmit: (event: FormEvent) => void
  children: ReactNode
}) {
  const { t } = useI18n()
  const titleId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const form = useRef<HTMLFormElement>(null)
  useMainButton({ ...props.primary, onClick: () => form.current?.requestSubmit() })
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the step opens
  useEffect(() => {
    // A step the person moved to: keyboard and screen-reader users start at its
    // heading. Only on opening: a later render must never take the focus away.
    if (props.focus) heading.current?.focus()
  }, [])
  return (
    <form
      ref={form}
      className="stack"
      aria-labelledby={titleId}
      onSubmit={props.onSubmit}
      noValidate
    >
      <h1>{t('cards.new.title')}</h1>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {props.title}
      </h2>
      {props.children}
    </form>
  )
}

function ChooseStep(props: {
  focus: boolean
  funding: Funding
  onFunding: (funding: Funding) => void
  standAlonePrograms: CardProgram[]
  programId: string
  onProgram: (id: string) => void
  accounts: FiatAccount[]
  accountId: string
  onAccount: (id: string) => void
  formFactors: CardFormFactor[]
  formFactor: CardFormFactor | undefined
  onFormFactor: (factor: CardFormFactor) => void
  nickName: string
  onNickName: (name: string) => void
  ready: boolean
  onNext: () => void
}) {
  const { t, language } = useI18n()
  const formId = useId()
  return (
    <StepFrame
      title={t('cards.new.stepChoose')}
      focus={props.focus}
      primary={{ text: t('cards.new.continue'), enabled: props.ready, busy: false }}
      onSubmit={(event) => {
        event.preventDefault()
        if (props.ready) props.onNext()
      }}
    >
      <fieldset className="stack">
        <legend>{t('cards.new.funding')}</legend>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={props.funding === 'stand-alone'}
            onChange={() => props.onFunding('stand-alone')}
          />
          {t('cards.new.standAlone')}
        </label>
        <label className="row">
          <input
            type="radio"
            name={`${formId}-funding`}
            checked={props.funding === 'account'}
            onChange={() => props.onFunding('account')}
          />
          {t('cards.new.onAccount')}
        </label>
      </fieldset>

      {props.funding === 'stand-alone' ? (
        props.standAlonePrograms.length === 0 ? (
          <p>{t('cards.new.noPrograms')}</p>
        ) : (
          <SelectField
            label={t('cards.new.program')}
            value={props.programId}
            onChange={(event) => props.onProgram(event.target.value)}
          >
            {props.standAlonePrograms.map((item) => (
              <option key={item.id} value={item.id}>
                {t('cards.new.programOption', {
                  name: item.name,
                  currency: item.currency,
                  fee: formatMoney(language, {
                    amount: item.fees.issue,
                    currency: item.currency,
                    chain: null,
                  }),
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
          value={props.accountId}
          onChange={(event) => props.onAccount(event.target.value)}
        >
          {props.accounts.map((item) => (
            <option key={item.id} value={item.id}>
              {t('cards.new.accountOption', {
                program: accountName(t, item),
                balance: formatMoney(language, {
                  amount: item.balance,
                  currency: item.currency,
                  chain: null,
                }),
              })}
            </option>
          ))}
        </SelectField>
      )}

      {props.formFactors.length > 0 && (
        <fieldset className="stack">
          <legend>{t('cards.formFactor')}</legend>
          {props.formFactors.map((factor) => (
            <label key={factor} className="row">
              <input
                type="radio"
                name={`${formId}-form`}
                checked={props.formFactor === factor}
                onChange={() => props.onFormFactor(factor)}
              />
              {formFactorLabel(t, factor)}
            </label>
          ))}
        </fieldset>
      )}

      <TextField
        label={t('cards.new.nickName')}
        value={props.nickName}
        maxLength={64}
        onChange={(event) => props.onNickName(event.target.value)}
      />
      <div>
        <Button type="submit" disabled={!props.ready}>
          {t('cards.new.continue')}
        </Button>
      </div>
    </StepFrame>
  )
}

const FIELD_LABEL: Record<Exclude<AddressField, 'country'>, MessageKey> = {
  recipient_name: 'cards.address.recipient',
  line1: 'cards.address.line1',
  line2: 'cards.address.line2',
  city: 'cards.address.city',
  postal_code: 'cards.address.postalCode',
}
/** The fields in the order the form shows them. */
const ADDRESS_ORDER: AddressField[] = [...(Object.keys(FIELD_LABEL) as AddressField[]), 'country']
const AUTOCOMPLETE: Record<AddressField, string> = {
  recipient_name: 'shipping name',
  line1: 'shipping address-line1',
  line2: 'shipping address-line2',
  city: 'shipping address-level2',
  postal_code: 'shipping postal-code',
  country: 'shipping country',
}

function AddressStep(props: {
  focus: boolean
  address: DeliveryAddress
  onChange: (address: DeliveryAddress) => void
  serverFaults: AddressField[]
  onBack: () => void
  onNext: () => void
}) {
  const { t } = useI18n()
  const { countries } = useCountries()
  const [faults, setFaults] = useState<Partial<Record<AddressField, AddressFault>>>({})
  const inputs = useRef<Partial<Record<AddressField, HTMLInputElement | null>>>({})
  // The server's word on a field holds until that field is edited.
  const [serverFaults, setServerFaults] = useState(() => new Set(props.serverFaults))
  const countryId = useId()

  const focusField = (field: AddressField) => {
    if (field === 'country') document.getElementById(countryId)?.querySelector('select')?.focus()
    else inputs.current[field]?.focus()
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the faults the step opened with
  useEffect(() => {
    const first = ADDRESS_ORDER.find((field) => props.serverFaults.includes(field))
    if (first) focusField(first)
  }, [])

  const set = (field: AddressField, value: string) => {
    props.onChange({ ...props.address, [field]: value })
    setFaults((current) => ({ ...current, [field]: undefined }))
    setServerFaults((current) => new Set([...current].filter((item) => item !== field)))
  }
  const message = (field: AddressField) => {
    const fault = faults[field]
    if (fault) return t(`cards.address.${fault}`)
    return serverFaults.has(field) ? t('cards.address.invalid') : undefined
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = addressFaults(props.address)
    setFaults(found)
    const first = ADDRESS_ORDER.find((field) => found[field])
    if (first) focusField(first)
    else props.onNext()
  }

  return (
    <StepFrame
      title={t('cards.new.stepAddress')}
      focus={props.focus}
      primary={{ text: t('cards.new.continue'), enabled: true, busy: false }}
      onSubmit={submit}
    >
      <p className="muted">{t('cards.address.lead')}</p>
      {(Object.keys(FIELD_LABEL) as Exclude<AddressField, 'country'>[]).map((field) => (
        <TextField
          key={field}
          ref={(element) => {
            inputs.current[field] = element
          }}
          label={t(FIELD_LABEL[field])}
          value={props.address[field] ?? ''}
          autoComplete={AUTOCOMPLETE[field]}
          required={field !== 'line2'}
          maxLength={MAX_LENGTH[field]}
          onChange={(event) => set(field, event.target.value)}
          error={message(field)}
        />
      ))}
      <div id={countryId}>
        <CountryPicker
          kind="country"
          label={t('cards.address.country')}
          value={props.address.country}
          onChange={(value) => set('country', value)}
          countries={countries}
          required
          autoComplete={AUTOCOMPLETE.country}
          error={message('country')}
        />
      </div>
      <div className="row">
        <Button variant="secondary" onClick={props.onBack}>
          {t('cards.new.back')}
        </Button>
        <Button type="submit">{t('cards.new.continue')}</Button>
      </div>
    </StepFrame>
  )
}

function ReviewStep(props: {
  focus: boolean
  program: CardProgram
  account: FiatAccount | undefined
  formFactor: CardFormFactor
  nickName: string
  address: DeliveryAddress | undefined
  wallet: string
  error: unknown
  busy: boolean
  onBack: () => void
  onConfirm: () => void
}) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const { program, address } = props
  const money = (amount: string) =>
    formatMoney(language, { amount: amount, currency: program.currency, chain: null })
  const rows: [string, string][] = [
    [t('cards.program'), `${program.name} · ${program.currency}`],
    [
      t('cards.funding'),
      props.account
        ? t('cards.new.accountOption', {
            program: accountName(t, props.account),
            balance: money(props.account.balance),
          })
        : t('cards.standAlone'),
    ],
    [t('cards.formFactor'), formFactorLabel(t, props.formFactor)],
    ...(props.nickName ? [[t('cards.rename.label'), props.nickName] as [string, string]] : []),
    ...(address
      ? [
          [
            t('cards.address.title'),
            [
              address.recipient_name,
              address.line1,
              address.line2,
              `${address.postal_code} ${address.city}`,
              address.country,
            ]
              .filter(Boolean)
              .join(', '),
          ] as [string, string],
        ]
      : []),
    [t('cards.new.issueFee'), money(program.fees.issue)],
    [t('cards.new.monthlyFee'), money(program.fees.monthly)],
  ]
  const insufficient = props.error instanceof ApiError && props.error.code === 'INSUFFICIENT_FUNDS'

  return (
    <StepFrame
      title={t('cards.new.stepReview')}
      focus={props.focus}
      primary={{
        text: t('cards.new.submit'),
        enabled: !props.busy && !server.offline,
        busy: props.busy,
      }}
      onSubmit={(event) => {
        event.preventDefault()
        props.onConfirm()
      }}
    >
      <FieldList rows={rows} />
      <p className="muted">{t('cards.new.feeNote')}</p>
      {insufficient ? (
        <div className="stack" role="alert">
          <p className="alert alert-error">
            {t('cards.new.insufficient', { fee: money(program.fees.issue) })}
          </p>
          <p>
            {/* On an account the fee comes from the account; stand-alone, from the wallet. */}
            {props.account ? (
              <Link
                href={href.topUp({ wallet: props.wallet, account: props.account.id })}
                className="button button-secondary"
              >
                {t('cards.new.topUp')}
              </Link>
            ) : (
              <Link
                href={href.deposit({ wallet: props.wallet, currency: program.currency_uuid })}
                className="button button-secondary"
              >
                {t('cards.new.addMoney')}
              </Link>
            )}
          </p>
        </div>
      ) : (
        props.error !== null && <ErrorSummary error={props.error} />
      )}
      <div className="row">
        <Button variant="secondary" onClick={props.onBack} disabled={props.busy}>
          {t('cards.new.back')}
        </Button>
        <Button type="submit" busy={props.busy} {...server.disabledProps}>
          {t('cards.new.submit')}
        </Button>
      </div>
      {server.reason}
    </StepFrame>
  )
}
