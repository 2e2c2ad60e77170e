import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { useSearch } from 'wouter'
import type { Currency } from '../../../contract/catalog.ts'
import type { OrderType } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { QrCode } from '../../ui/qr-code.tsx'
import { formKey } from './flow-url.ts'
import { type Basics, MoneyPage } from './money-page.tsx'
import { useCreateAddress } from './mutations.ts'
import { OrderFlow } from './order-flow.tsx'
import { addressesQuery } from './queries.ts'
import './orders.css'

/** /deposit?wallet=&currency= — a crypto address to send to, or a bank transfer with its reference. */
export default function DepositPage() {
  const search = useSearch()
  const { t } = useI18n()
  const params = new URLSearchParams(search)
  return (
    <MoneyPage
      key={formKey(search)}
      title={t('orders.deposit.title')}
      wallet={params.get('wallet') ?? undefined}
    >
      {(basics) => <DepositForm basics={basics} currency={params.get('currency') ?? undefined} />}
    </MoneyPage>
  )
}

/** Bank rails that bring each fiat currency in (contract QuoteQuery): SEPA is euros only. */
type Rail = Extract<OrderType, 'DEPOSIT_FIAT_SEPA' | 'DEPOSIT_FIAT_SWIFT'>
const railsFor = (code: string): Rail[] =>
  code === 'EUR' ? ['DEPOSIT_FIAT_SEPA', 'DEPOSIT_FIAT_SWIFT'] : ['DEPOSIT_FIAT_SWIFT']
const DEPOSIT_FIAT = new Set(['EUR', 'USD', 'GBP'])
const depositable = (currency: Currency) =>
  currency.type !== 'fiat' || DEPOSIT_FIAT.has(currency.code)

function DepositForm(props: { basics: Basics; currency?: string }) {
  const { t } = useI18n()
  const { basics } = props
  const options = basics.currencies.filter(depositable)
  const [currencyId, setCurrencyId] = useState(props.currency ?? options[0]?.uuid)
  const currency = basics.currency(currencyId)
  const [chosenRail, setRail] = useState<Rail>()

  const picker = (
    <>
      {basics.walletField}
      <SelectField
        label={t('orders.deposit.currency')}
        value={currencyId ?? ''}
        onChange={(event) => setCurrencyId(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.uuid} value={option.uuid}>
            {basics.currencyOption(option, false)}
          </option>
        ))}
      </SelectField>
    </>
  )

  if (currency?.type !== 'fiat') {
    return (
      <div className="stack">
        <h1>{t('orders.deposit.title')}</h1>
        {picker}
        {currency?.chain && (
          <CryptoAddress
            key={`${basics.wallet.uuid}:${currency.chain}`}
            wallet={basics.wallet.uuid}
            currency={currency}
            chain={basics.chainName(currency.chain) ?? currency.chain}
          />
        )}
      </div>
    )
  }

  const rails = railsFor(currency.code)
  const rail = chosenRail && rails.includes(chosenRail) ? chosenRail : rails[0]!
  const side = { currency: currency.code, decimals: currency.decimals }
  return (
    <OrderFlow
      kind="deposit"
      title={t('orders.deposit.title')}
      lead={t('orders.deposit.bankLead')}
      request={{ order_type: rail, wallet_uuid: basics.wallet.uuid, from_uuid: currency.uuid }}
      from={side}
      to={side}
      fields={
        <>
          {picker}
          {rails.length > 1 && (
            <fieldset className="fieldset">
              <legend>{t('orders.deposit.rail')}</legend>
              <div className="row">
                {rails.map((value) => (
                  <label key={value} className="order-choice">
                    <input
                      type="radio"
                      name="deposit-rail"
                      value={value}
                      checked={rail === value}
                      onChange={() => setRail(value)}
                    />
                    {t(`orders.rail.${value}`)}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        </>
      }
    />
  )
}

/**
 * The wallet's address on the currency's chain, as a QR code with a copy
 * button; a wallet without one yet gets one on request.
 */
function CryptoAddress(props: { wallet: string; currency: Currency; chain: string }) {
  const { t } = useI18n()
  const titleId = useId()
  const chain = props.currency.chain!
  const addresses = useQuery(addressesQuery(props.wallet, chain))
  const create = useCreateAddress(props.wallet)
  const server = useNeedsServer()

  let body: ReactNode
  if (addresses.isPending) body = <Pending paused={addresses.isPaused} />
  else if (addresses.isError) body = <ErrorSummary error={addresses.error} />
  else {
    const newest = addresses.data.data.at(-1)
    body = newest ? (
      <div className="address stack">
        <QrCode
          text={newest.address}
          label={t('address.qr', { address: newest.address })}
          loadingLabel={t('address.qrLoading')}
        />
        <code className="address-text" data-testid="deposit-address">
          {newest.address}
        </code>
        <CopyButton text={newest.address} thing={t('orders.deposit.address')} />
        <p className="alert alert-warning" role="note">
          {t('orders.deposit.onlyChain', { currency: props.currency.code, chain: props.chain })}
        </p>
      </div>
    ) : (
      <div className="stack">
        <p className="muted">{t('orders.deposit.noAddress', { chain: props.chain })}</p>
        <ErrorSummary error={create.error} />
        <Button
          block
          busy={create.isPending}
          onClick={() => create.mutate(chain)}
          {...server.disabledProps}
        >
          {create.isPending ? t('address.getting') : t('orders.deposit.getAddress')}
        </Button>
        {server.reason}
      </div>
    )
  }
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('orders.deposit.addressTitle', { currency: props.currency.code })}</h2>
      {body}
    </section>
  )
}
