import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import type { AutoTopUp, AutoTopUpBody, AutoTopUpFailure } from '../../../contract/auto-top-up.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { walletName } from '../../i18n/wallet-names.ts'
import { currenciesQuery, useChainName, walletsQuery } from '../../queries/wallets.ts'
import { Notice, Skeleton } from '../../ui/components.tsx'
import { compare, parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { SaveRow } from './card-settings.tsx'
import { useAutoTopUp } from './mutations.ts'
import { autoTopUpQuery } from './queries.ts'

const FAILURE: Record<AutoTopUpFailure, MessageKey> = {
  INSUFFICIENT_FUNDS: 'cards.autoTopUp.failure.INSUFFICIENT_FUNDS',
  DAILY_CAP_REACHED: 'cards.autoTopUp.failure.DAILY_CAP_REACHED',
  RATES_UNAVAILABLE: 'cards.autoTopUp.failure.RATES_UNAVAILABLE',
  QUOTE_REFUSED: 'cards.autoTopUp.failure.QUOTE_REFUSED',
  ACCOUNT_UNAVAILABLE: 'cards.autoTopUp.failure.ACCOUNT_UNAVAILABLE',
  KYC_REQUIRED: 'cards.autoTopUp.failure.KYC_REQUIRED',
}

/** The stablecoins a top-up may be paid in besides the account's own currency (the server's rule). */
const STABLECOINS = ['USDT', 'USDC']

/**
 * A balance card account's auto top-up (issue 30): when a card payment leaves
 * it below an amount, an order from a wallet brings it back up, within a
 * daily cap. Shows today's use and the last try; saving it on asks for the
 * second look (the API client asks in place), turning it off never does.
 */
export function AutoTopUpSection(props: { account: FiatAccount }) {
  const { t } = useI18n()
  const titleId = useId()
  const stored = useQuery(autoTopUpQuery(props.account.id))
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.autoTopUp.title')}</h2>
      <p className="muted">{t('cards.autoTopUp.lead')}</p>
      {stored.isPending ? (
        <Skeleton label={t('cards.autoTopUp.loading')} />
      ) : stored.isError ? (
        <ErrorSummary error={stored.error} />
      ) : (
        <>
          <LastRun stored={stored.data} />
          <AutoTopUpForm account={props.account} stored={stored.data} />
        </>
      )}
    </section>
  )
}

/** Today's use against the cap, and what the last try did. */
function LastRun(props: { stored: AutoTopUp }) {
  const { t, language } = useI18n()
  const { stored } = props
  const money = (amount: string) =>
    formatMoney(language, { amount, currency: stored.currency, chain: null })
  const last = stored.last_run
  return (
    <dl className="fields">
      {stored.daily_cap !== null && (
        <div className="field-row">
          <dt>{t('cards.autoTopUp.today')}</dt>
          <dd>
            {t('cards.autoTopUp.ofCap', {
              used: money(stored.topped_up_today),
              cap: money(stored.daily_cap),
            })}
          </dd>
        </div>
      )}
      <div className="field-row">
        <dt>{t('cards.autoTopUp.last')}</dt>
        <dd>
          {last === null
            ? t('cards.autoTopUp.never')
            : `${
                last.status === 'FAILED'
                  ? t('cards.autoTopUp.failed', {
                      why: t(FAILURE[last.failure ?? 'ACCOUNT_UNAVAILABLE']),
                    })
                  : t(
                      last.status === 'PLACED'
                        ? 'cards.autoTopUp.placed'
                        : 'cards.autoTopUp.pending',
                      {
                        amount: money(last.amount ?? '0'),
                      },
                    )
              } · ${formatDateTime(language, last.at)}`}
        </dd>
      </div>
    </dl>
  )
}

type Field = 'below' | 'top_up_to' | 'daily_cap'
type Draft = Record<Field, string> & { enabled: boolean; wallet: string; currency: string }

const positive = (text: string) => {
  try {
    return compare(parseDecimal(text), { units: 0n, scale: 0 }) > 0
  } catch {
    return false
  }
}

/** What the form refuses before asking the server: each field by its own words. */
function faultsOf(draft: Draft): Partial<Record<Field, MessageKey>> {
  const faults: Partial<Record<Field, MessageKey>> = {}
  for (const field of ['below', 'top_up_to', 'daily_cap'] as const) {
    const value = draft[field].trim()
    if (value === '' ? draft.enabled : !positive(value)) faults[field] = 'cards.autoTopUp.amount'
  }
  if (
    !faults.below &&
    !faults.top_up_to &&
    draft.below.trim() !== '' &&
    draft.top_up_to.trim() !== '' &&
    compare(parseDecimal(draft.top_up_to), parseDecimal(draft.below)) <= 0
  ) {
    faults.top_up_to = 'cards.autoTopUp.aboveBelow'
  }
  return faults
}

function AutoTopUpForm(props: { account: FiatAccount; stored: AutoTopUp }) {
  const { t, language } = useI18n()
  const { account, stored } = props
  const save = useAutoTopUp(account.id)
  const wallets = useQuery(walletsQuery())
  const currencies = useQuery(currenciesQuery())
  const chainName = useChainName()
  const [draft, setDraft] = useState<Draft>(() => ({
    enabled: stored.enabled,
    below: stored.below ?? '',
    top_up_to: stored.top_up_to ?? '',
    daily_cap: stored.daily_cap ?? '',
    wallet: stored.from_wallet_uuid ?? account.wallet_uuid,
    currency: stored.from_currency ?? account.currency_uuid,
  }))
  const [tried, setTried] = useState(false)
  const faults = tried ? faultsOf(draft) : {}
  const change = (next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }))
    save.reset()
  }
  const payable = (currencies.data?.data ?? []).filter(
    (currency) =>
      currency.uuid === account.currency_uuid ||
      (currency.type === 'token' && STABLECOINS.includes(currency.code)),
  )
  const disabled = account.status !== 'ACTIVE'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTried(true)
    if (Object.keys(faultsOf(draft)).length > 0) return
    const amount = (field: Field) => draft[field].trim() || undefined
    const body: AutoTopUpBody = {
      enabled: draft.enabled,
      below: amount('below'),
      top_up_to: amount('top_up_to'),
      daily_cap: amount('daily_cap'),
      from_wallet_uuid: draft.wallet,
      from_currency: draft.currency,
    }
    save.mutate(body)
  }

  const amountField = (field: Field, label: MessageKey, hint?: MessageKey) => (
    <TextField
      label={t(label)}
      hint={hint && t(hint)}
      adornment={account.currency}
      inputMode="decimal"
      autoComplete="off"
      value={draft[field]}
      onChange={(event) => change({ [field]: event.target.value })}
      error={faults[field] && t(faults[field], { below: draft.below })}
    />
  )

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <fieldset className="controls-group" disabled={disabled}>
        <legend className="visually-hidden">{t('cards.autoTopUp.title')}</legend>
        <label className="controls-switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={draft.enabled}
            checked={draft.enabled}
            onChange={(event) => change({ enabled: event.target.checked })}
          />
          {t('cards.autoTopUp.switch')}
        </label>
        {/* Off, the fields wait hidden with what they held: turned on again, they are as they were. */}
        {draft.enabled && (
          <>
            {amountField('below', 'cards.autoTopUp.below')}
            {amountField('top_up_to', 'cards.autoTopUp.topUpTo')}
            <SelectField
              label={t('cards.autoTopUp.wallet')}
              value={draft.wallet}
              onChange={(event) => change({ wallet: event.target.value })}
            >
              {(wallets.data?.data ?? []).map((wallet) => (
                <option key={wallet.uuid} value={wallet.uuid}>
                  {walletName(t, wallet)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t('cards.autoTopUp.currency')}
              value={draft.currency}
              onChange={(event) => change({ currency: event.target.value })}
            >
              {payable.length === 0 && (
                <option value={account.currency_uuid}>{account.currency}</option>
              )}
              {payable.map((currency) => (
                <option key={currency.uuid} value={currency.uuid}>
                  {currency.chain
                    ? `${currency.code} · ${chainName(currency.chain)}`
                    : currency.code}
                </option>
              ))}
            </SelectField>
            {amountField('daily_cap', 'cards.autoTopUp.cap', 'cards.autoTopUp.capHint')}
          </>
        )}
      </fieldset>
      <p className="muted">{t('cards.autoTopUp.secondLook')}</p>
      <SaveRow label={t('cards.autoTopUp.save')} busy={save.isPending} disabled={disabled} />
      {save.isSuccess && (
        <Notice>
          {t(save.data.enabled ? 'cards.autoTopUp.savedOn' : 'cards.autoTopUp.savedOff', {
            below: formatMoney(language, {
              amount: save.data.below ?? '0',
              currency: account.currency,
              chain: null,
            }),
          })}
        </Notice>
      )}
      {save.isError && <ErrorSummary error={save.error} />}
    </form>
  )
}
