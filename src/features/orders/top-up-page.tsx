import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useSearch } from 'wouter'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import type { OrderType } from '../../../contract/orders.ts'
import { accountName } from '../../i18n/account-names.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { Pending } from '../../ui/online.tsx'
import { formKey } from './flow-url.ts'
import { type Basics, MoneyPage, useHeldFirst } from './money-page.tsx'
import { OrderFlow } from './order-flow.tsx'
import { fiatAccountsQuery } from './queries.ts'
import './orders.css'

/**
 * /top-up?wallet=&account=&card= — money from the wallet onto a card's fiat
 * account. Opened from a card's "Add money" (`card`), back and "Done" lead to the card.
 */
export default function TopUpPage() {
  const search = useSearch()
  const { t } = useI18n()
  const params = new URLSearchParams(search)
  const card = params.get('card')
  const back = card ? { href: href.card(card), label: t('orders.topUp.backToCard') } : undefined
  return (
    <MoneyPage
      key={formKey(search)}
      title={t('orders.topUp.title')}
      wallet={params.get('wallet') ?? undefined}
      back={back}
    >
      {(basics) => (
        <TopUp basics={basics} account={params.get('account') ?? undefined} done={back?.href} />
      )}
    </MoneyPage>
  )
}

/** Stablecoins top up any card account, converted at the quoted rate (wholesale). */
const WHOLESALE_CODES = new Set(['USDT', 'USDC'])

/**
 * The order type of a top-up: in the account's own currency it is a transfer
 * to the prepaid or balance sub-account; in a stablecoin, a wholesale one.
 */
export function topUpType(account: FiatAccount, payWith: string): OrderType {
  if (payWith !== account.currency_uuid) return 'TRANSFER_CARD_WHOLESALE'
  return account.sub_account_type === 'prepaid'
    ? 'TRANSFER_CARD_PREPAID'
    : 'TRANSFER_CARD_SUBACCOUNT'
}

function TopUp(props: { basics: Basics; account?: string; done?: string | undefined }) {
  const { t } = useI18n()
  const { basics } = props
  const accounts = useQuery(fiatAccountsQuery(basics.wallet.uuid))
  if (accounts.isPending) {
    return (
      <div className="stack">
        <h1>{t('orders.topUp.title')}</h1>
        <Pending paused={accounts.isPaused} />
      </div>
    )
  }
  if (accounts.isError) {
    return (
      <div className="stack">
        <h1>{t('orders.topUp.title')}</h1>
        <ErrorSummary error={accounts.error} />
        <Button variant="secondary" onClick={() => accounts.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  }
  const usable = accounts.data.data.filter((account) => account.status === 'ACTIVE')
  if (usable.length === 0) {
    return (
      <div className="stack">
        <h1>{t('orders.topUp.title')}</h1>
        {basics.walletField}
        <section className="card stack order-empty">
          <h2>{t('orders.topUp.noAccountsTitle')}</h2>
          <p className="muted">{t('orders.topUp.noAccounts')}</p>
        </section>
      </div>
    )
  }
  return (
    <TopUpForm basics={basics} accounts={usable} preselected={props.account} done={props.done} />
  )
}

function TopUpForm(props: {
  basics: Basics
  accounts: FiatAccount[]
  preselected?: string | undefined
  done?: string | undefined
}) {
  const { t, language } = useI18n()
  const { basics, accounts } = props
  const [accountId, setAccountId] = useState(props.preselected)
  const account = accounts.find((candidate) => candidate.id === accountId) ?? accounts[0]!
  const payOptions = basics.currencies.filter(
    (currency) => currency.uuid === account.currency_uuid || WHOLESALE_CODES.has(currency.code),
  )
  const [payWith, setPayWith] = useState<string>()
  // Unless the person picks: the account's own currency, unless the wallet has none of it and a stablecoin it has.
  const held = (uuid: string) => parseDecimal(basics.available(uuid)).units > 0n
  const fallback =
    payOptions.find((currency) => currency.uuid === account.currency_uuid && held(currency.uuid)) ??
    payOptions.find((currency) => held(currency.uuid)) ??
    payOptions.find((currency) => currency.uuid === account.currency_uuid) ??
    payOptions[0]
  const pay = payOptions.find((currency) => currency.uuid === payWith) ?? fallback
  const pickable = useHeldFirst(basics, payOptions, pay?.uuid)
  const target = basics.currency(account.currency_uuid)

  return (
    <OrderFlow
      kind="topUp"
      title={t('orders.topUp.title')}
      done={props.done}
      request={
        pay
          ? {
              order_type: topUpType(account, pay.uuid),
              wallet_uuid: basics.wallet.uuid,
              from_uuid: pay.uuid,
              fiat_account_id: account.id,
            }
          : undefined
      }
      from={pay && { currency: pay.code, decimals: pay.decimals }}
      to={{ currency: account.currency, decimals: target?.decimals ?? 2 }}
      available={pay ? basics.available(pay.uuid) : undefined}
      fields={
        <>
          {basics.walletField}
          <SelectField
            label={t('orders.topUp.account')}
            value={account.id}
            onChange={(event) => setAccountId(event.target.value)}
          >
            {accounts.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {t('orders.topUp.accountOption', {
                  program: accountName(t, candidate),
                  kind: t(`orders.subAccount.${candidate.sub_account_type}`),
                  balance: formatMoney(language, {
                    amount: candidate.balance,
                    currency: candidate.currency,
                    chain: null,
                  }),
                })}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('orders.topUp.payWith')}
            value={pay?.uuid ?? ''}
            onChange={(event) => setPayWith(event.target.value)}
            hint={
              pay && pay.uuid !== account.currency_uuid
                ? t('orders.topUp.converted', { currency: account.currency })
                : undefined
            }
          >
            {pickable.options.map((currency) => (
              <option key={currency.uuid} value={currency.uuid}>
                {basics.currencyOption(currency)}
              </option>
            ))}
          </SelectField>
          {pickable.toggle}
        </>
      }
    />
  )
}
