import { type UseQueryResult, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import type { Currency } from '../../../contract/catalog.ts'
import type { Destination, DestinationList } from '../../../contract/counterparties.ts'
import type { Quote } from '../../../contract/orders.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { parseDecimal } from '../../ui/decimal.ts'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField, TextField } from '../../ui/fields.tsx'
import { Pending } from '../../ui/online.tsx'
import { formKey } from './flow-url.ts'
import { type Basics, MoneyPage, useHeldFirst } from './money-page.tsx'
import { OrderFlow } from './order-flow.tsx'
import { inFours, type Row } from './order-target.tsx'
import { counterpartiesQuery, destinationsQuery } from './queries.ts'
import type { QuoteRequest } from './use-order-flow.ts'
import './orders.css'

/** /send?wallet=&currency=&counterparty=&destination= — crypto to an address, or to a saved recipient; euros by SEPA. */
export default function SendPage() {
  const search = useSearch()
  const { t } = useI18n()
  const params = new URLSearchParams(search)
  return (
    <MoneyPage
      key={formKey(search)}
      title={t('orders.send.title')}
      wallet={params.get('wallet') ?? undefined}
    >
      {(basics) => {
        // What a link preselects belongs to its wallet: another wallet starts afresh.
        const linked = basics.wallet.uuid === params.get('wallet')
        return (
          <SendForm
            basics={basics}
            currency={(linked && params.get('currency')) || undefined}
            counterparty={(linked && params.get('counterparty')) || undefined}
            destination={(linked && params.get('destination')) || undefined}
          />
        )
      }}
    </MoneyPage>
  )
}

/** Euros leave by SEPA; every coin and token by its chain. Other fiat has no payout order. */
const sendable = (currency: Currency) => currency.type !== 'fiat' || currency.code === 'EUR'

/** Whether a saved destination can take this currency: SEPA for euros, the same chain (or inside the platform) for crypto. */
export const canReceive = (destination: Destination, currency: Currency) =>
  currency.type === 'fiat'
    ? currency.code === 'EUR' && destination.type === 'SEPA'
    : destination.type === 'CRYPTO_INTERNAL' ||
      (destination.type === 'CRYPTO_EXTERNAL' && destination.chain === currency.chain)

type Mode = 'saved' | 'address'

/**
 * The send form. Rendered afresh for each wallet (MoneyPage keys it), so a
 * recipient of one wallet is never sent from another. A saved destination
 * is used only while it is among those shown for the chosen recipient and
 * currency: the form never pays a destination it does not display.
 */
function SendForm(props: {
  basics: Basics
  currency?: string
  counterparty?: string
  destination?: string
}) {
  const { t } = useI18n()
  const queryClient = useQueryClient()
  const { basics } = props
  const wallet = basics.wallet.uuid
  const options = basics.currencies
    .filter(sendable)
    .sort(
      (a, b) =>
        Number(parseDecimal(basics.available(b.uuid)).units > 0n) -
        Number(parseDecimal(basics.available(a.uuid)).units > 0n),
    )
  const [currencyId, setCurrencyId] = useState(props.currency ?? options[0]?.uuid)
  const pickable = useHeldFirst(basics, options, currencyId)
  const currency = basics.currency(currencyId)
  const [mode, setMode] = useState<Mode>('saved')
  const [counterparty, setCounterparty] = useState(props.counterparty)
  const [destination, setDestination] = useState(props.destination)
  const [address, setAddress] = useState('')

  const preselected = usePreselectedDestination(wallet, props.counterparty, props.destination)
  // Applied once, when the linked destination is found; the person's own choices win after that.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!preselected) return
    setCounterparty(preselected.counterparty_account_id)
    setDestination(preselected.counterparty_destination_id)
    // The link's currency stands when the destination can take it; else the destination decides.
    if (currency && canReceive(preselected, currency)) return
    const held = (candidates: Currency[]) =>
      candidates.find((c) => parseDecimal(basics.available(c.uuid)).units > 0n)
    if (preselected.type === 'SEPA') {
      setCurrencyId(basics.currencies.find((c) => c.code === 'EUR' && c.type === 'fiat')?.uuid)
    } else if (preselected.type === 'CRYPTO_EXTERNAL') {
      const onChain = basics.currencies.filter((c) => c.chain === preselected.chain)
      setCurrencyId((held(onChain) ?? onChain.find((c) => c.type === 'native') ?? onChain[0])?.uuid)
    } else if (preselected.type === 'CRYPTO_INTERNAL') {
      const crypto = basics.currencies.filter((c) => c.type !== 'fiat')
      setCurrencyId((held(crypto) ?? crypto[0])?.uuid)
    }
  }, [preselected])

  const destinations = useQuery({
    ...destinationsQuery(wallet, counterparty ?? ''),
    enabled: counterparty !== undefined,
  })
  const crypto = currency !== undefined && currency.type !== 'fiat'
  const useAddress = crypto && mode === 'address'
  const usable =
    currency && !useAddress
      ? (destinations.data?.data ?? []).filter((candidate) => canReceive(candidate, currency))
      : []
  const chosen = usable.find((candidate) => candidate.counterparty_destination_id === destination)
  const trimmed = address.trim()
  let request: QuoteRequest | undefined
  if (currency) {
    const base = {
      order_type: crypto ? ('WITHDRAWAL_CRYPTO' as const) : ('WITHDRAWAL_FIAT_SEPA' as const),
      wallet_uuid: wallet,
      from_uuid: currency.uuid,
    }
    if (useAddress && trimmed) request = { ...base, address: trimmed }
    if (chosen) request = { ...base, destination_id: chosen.counterparty_destination_id }
  }
  const side = currency && { currency: currency.code, decimals: currency.decimals }

  /** A SEPA payout's account in full on the review: the IBAN of the destination that was priced. */
  const details = (quote: Quote): Row[] => {
    if (
      !chosen?.iban ||
      chosen.type !== 'SEPA' ||
      quote.target.counterparty_destination_id !== chosen.counterparty_destination_id
    ) {
      return []
    }
    // Read again on review: until that answer is in, the IBAN shown might be an older one.
    if (destinations.isFetching) return [[t('orders.target.iban'), t('orders.target.checking')]]
    const rows: Row[] = [
      [
        t('orders.target.iban'),
        <code key="iban" className="address-text grouped" data-testid="target-iban">
          {inFours(chosen.iban)}
        </code>,
      ],
    ]
    if (chosen.bic) rows.push([t('orders.target.bic'), <code key="bic">{chosen.bic}</code>])
    if (chosen.bank_name) rows.push([t('orders.target.bank'), chosen.bank_name])
    return rows
  }

  return (
    <OrderFlow
      kind="send"
      title={t('orders.send.title')}
      request={request}
      from={side}
      to={side}
      available={currency ? basics.available(currency.uuid) : undefined}
      note
      details={details}
      refreshTarget={() => {
        if (counterparty) {
          void queryClient.invalidateQueries({
            queryKey: destinationsQuery(wallet, counterparty).queryKey,
          })
        }
      }}
      fields={(problems) => (
        <>
          {basics.walletField}
          <SelectField
            label={t('orders.send.currency')}
            value={currencyId ?? ''}
            onChange={(event) => {
              setCurrencyId(event.target.value)
              setDestination(undefined)
            }}
          >
            {pickable.options.map((option) => (
              <option key={option.uuid} value={option.uuid}>
                {basics.currencyOption(option)}
              </option>
            ))}
          </SelectField>
          {pickable.toggle}
          {crypto && (
            <fieldset className="fieldset">
              <legend>{t('orders.send.to')}</legend>
              <div className="row">
                {(['saved', 'address'] as const).map((value) => (
                  <label key={value} className="order-choice">
                    <input
                      type="radio"
                      name="send-mode"
                      value={value}
                      checked={mode === value}
                      onChange={() => setMode(value)}
                    />
                    {t(value === 'saved' ? 'orders.send.saved' : 'orders.send.newAddress')}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {useAddress ? (
            <TextField
              label={t('orders.send.address')}
              autoComplete="off"
              spellCheck={false}
              value={address}
              onChange={(event) => setAddress(event.target.value)}
              error={problems.address}
              hint={t('orders.send.addressHint', {
                chain: basics.chainName(currency.chain) ?? '',
              })}
            />
          ) : (
            currency && (
              <SavedDestination
                wallet={wallet}
                currency={currency}
                counterparty={counterparty}
                destination={chosen?.counterparty_destination_id}
                destinations={destinations}
                usable={usable}
                error={problems.destination}
                onCounterparty={(id) => {
                  setCounterparty(id)
                  setDestination(undefined)
                }}
                onDestination={setDestination}
              />
            )
          )}
        </>
      )}
    />
  )
}

/**
 * The destination a link names (`?destination=`, with `?counterparty=` from
 * the counterparty book: one request). A link naming the destination alone
 * looks among the counterparties' destinations, each counterparty with any
 * asked once; the answers are the same the pickers show.
 */
function usePreselectedDestination(
  wallet: string,
  counterparty: string | undefined,
  id: string | undefined,
) {
  const counterparties = useQuery({
    ...counterpartiesQuery(wallet),
    enabled: id !== undefined && counterparty === undefined,
  })
  const owners = counterparty
    ? [counterparty]
    : (counterparties.data?.data ?? [])
        .filter((candidate) => candidate.destinations_count > 0)
        .map((candidate) => candidate.counterparty_account_id)
  const lists = useQueries({
    queries: id ? owners.map((owner) => destinationsQuery(wallet, owner)) : [],
  })
  const found = lists
    .flatMap((list) => list.data?.data ?? [])
    .find((destination) => destination.counterparty_destination_id === id)
  // One object for as long as it is the same destination: it feeds an effect.
  const [kept, setKept] = useState<Destination>()
  useEffect(() => {
    if (found && found.counterparty_destination_id !== kept?.counterparty_destination_id) {
      setKept(found)
    }
  }, [found, kept])
  return kept
}

function SavedDestination(props: {
  wallet: string
  currency: Currency
  counterparty: string | undefined
  destination: string | undefined
  destinations: UseQueryResult<DestinationList>
  /** The counterparty's destinations that can take the currency: the only ones offered. */
  usable: Destination[]
  error: string | undefined
  onCounterparty: (id: string | undefined) => void
  onDestination: (id: string | undefined) => void
}) {
  const { t } = useI18n()
  const counterparties = useQuery(counterpartiesQuery(props.wallet))
  const { destinations, usable } = props
  const addLink = (
    <Link href={href.counterparties(props.wallet)}>{t('orders.send.manageRecipients')}</Link>
  )

  if (counterparties.isPending) return <Pending paused={counterparties.isPaused} />
  if (counterparties.isError) return <ErrorSummary error={counterparties.error} />
  const people = counterparties.data.data
  if (people.length === 0) {
    return (
      <div className="stack">
        <p className="muted">{t('orders.send.noRecipients')}</p>
        {addLink}
      </div>
    )
  }
  return (
    <div className="stack">
      <SelectField
        label={t('orders.send.recipient')}
        value={props.counterparty ?? ''}
        onChange={(event) => props.onCounterparty(event.target.value || undefined)}
      >
        <option value="">{t('orders.send.chooseRecipient')}</option>
        {people.map((person) => (
          <option key={person.counterparty_account_id} value={person.counterparty_account_id}>
            {person.name}
          </option>
        ))}
      </SelectField>
      {props.counterparty &&
        (destinations.isPending ? (
          <Pending paused={destinations.isPaused} />
        ) : destinations.isError && !destinations.data ? (
          <ErrorSummary error={destinations.error} />
        ) : usable.length === 0 ? (
          <p className="muted">
            {t('orders.send.noUsableDestination', { currency: props.currency.code })}
          </p>
        ) : (
          <SelectField
            label={t('orders.send.destination')}
            value={props.destination ?? ''}
            onChange={(event) => props.onDestination(event.target.value || undefined)}
            error={props.error}
          >
            <option value="">{t('orders.send.chooseDestination')}</option>
            {usable.map((destination) => (
              <option
                key={destination.counterparty_destination_id}
                value={destination.counterparty_destination_id}
              >
                {destination.label
                  ? `${destination.label} · ${destination.display}`
                  : destination.display}
              </option>
            ))}
          </SelectField>
        ))}
      {addLink}
    </div>
  )
}
