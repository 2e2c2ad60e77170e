import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import type { Chain, ChainId } from '../../../contract/catalog.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { QrCode } from '../../ui/qr-code.tsx'
import { useCreateAddress } from './mutations.ts'
import { addressesQuery, chainsQuery } from './queries.ts'

/** Deposit addresses: pick a network, see its address (QR + copy), or get one. */
export function Addresses(props: { walletUuid: string }) {
  const { t } = useI18n()
  const titleId = useId()
  const chains = useQuery(chainsQuery())
  const [chosen, setChosen] = useState<ChainId>()
  const chain = chosen ?? chains.data?.data[0]?.id

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('address.title')}</h2>
      {chains.isPending ? (
        <Pending paused={chains.isPaused} />
      ) : chains.isError ? (
        <ErrorSummary error={chains.error} />
      ) : (
        <>
          <SelectField
            label={t('address.chain')}
            value={chain ?? ''}
            onChange={(event) => setChosen(event.target.value as ChainId)}
          >
            {chains.data.data.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </SelectField>
          {chain && (
            <ChainAddress
              key={chain}
              walletUuid={props.walletUuid}
              chain={chains.data.data.find((option) => option.id === chain)!}
            />
          )}
        </>
      )}
    </section>
  )
}

function ChainAddress(props: { walletUuid: string; chain: Chain }) {
  const { t } = useI18n()
  const addresses = useQuery(addressesQuery(props.walletUuid, props.chain.id))
  const create = useCreateAddress(props.walletUuid)
  const server = useNeedsServer()

  if (addresses.isPending) return <Pending paused={addresses.isPaused} />
  if (addresses.isError) return <ErrorSummary error={addresses.error} />

  const list = addresses.data.data
  const newest = list.at(-1)
  const earlier = list.slice(0, -1).reverse()
  return (
    <div className="stack">
      {newest ? (
        <div className="address stack">
          <QrCode
            text={newest.address}
            label={t('address.qr', { address: newest.address })}
            loadingLabel={t('address.qrLoading')}
          />
          <code className="address-text" data-testid="address">
            {newest.address}
          </code>
          <p className="muted">{t('address.onlyChain', { chain: props.chain.name })}</p>
          <CopyButton text={newest.address} />
        </div>
      ) : (
        <p className="muted">{t('address.none')}</p>
      )}
      <ErrorSummary error={create.error} />
      <Button
        variant={newest ? 'secondary' : 'primary'}
        busy={create.isPending}
        onClick={() => create.mutate(props.chain.id)}
        {...server.disabledProps}
      >
        {create.isPending ? t('address.getting') : t('address.get')}
      </Button>
      {server.reason}
      {earlier.length > 0 && (
        <details>
          <summary>{t('address.others')}</summary>
          <ul className="stack">
            {earlier.map((address) => (
              <li key={address.uuid}>
                <code className="address-text">{address.address}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  )
}
