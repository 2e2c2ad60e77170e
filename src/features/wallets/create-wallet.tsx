import { useId, useState } from 'react'
import type { WalletType } from '../../../contract/wallets.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { useTenantConfig } from '../../queries/tenant.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { WALLET_TYPES, walletTypeLabel } from './labels.ts'
import { useCreateWallet } from './mutations.ts'

/** The types most people want; the rest wait under "More types". */
const COMMON: WalletType[] = ['personal', 'business', 'trading']

/** One line on what each type is for, in the person's words. */
const EXPLAINED: Record<WalletType, MessageKey> = {
  personal: 'wallets.explain.personal',
  business: 'wallets.explain.business',
  trading: 'wallets.explain.trading',
  escrow: 'wallets.explain.escrow',
  merchant: 'wallets.explain.merchant',
  exchange: 'wallets.explain.exchange',
  staking: 'wallets.explain.staking',
  vault: 'wallets.explain.vault',
}

/**
 * "Create wallet": the types the tenant offers (all while its configuration
 * is unknown), each explained in a line, Personal chosen to start with and
 * the rarer ones under "More types"; the list above shows the new one at once.
 */
export function CreateWallet() {
  const { t } = useI18n()
  const titleId = useId()
  const offered = useTenantConfig()?.wallet_types
  const types = WALLET_TYPES.filter((value) => !offered || offered.includes(value))
  const [open, setOpen] = useState(false)
  const [chosen, setType] = useState<WalletType | undefined>(undefined)
  const fallback = types.includes('personal') ? 'personal' : (types[0] ?? 'personal')
  const type = chosen && types.includes(chosen) ? chosen : fallback
  const create = useCreateWallet()
  const server = useNeedsServer()
  const common = types.filter((value) => COMMON.includes(value))
  const rare = types.filter((value) => !COMMON.includes(value))

  if (!open) {
    return (
      <div className="stack">
        {create.isSuccess && (
          <Notice>{t('wallets.created', { type: walletTypeLabel(t, create.data.type) })}</Notice>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            create.reset()
            setType(undefined)
            setOpen(true)
          }}
          {...server.disabledProps}
        >
          {t('wallets.create')}
        </Button>
        {server.reason}
      </div>
    )
  }

  const option = (value: WalletType) => (
    <label key={value} className="choice">
      <input
        type="radio"
        name="wallet-type"
        value={value}
        checked={type === value}
        onChange={() => setType(value)}
      />
      <span className="choice-text">
        <span className="choice-title">{walletTypeLabel(t, value)}</span>
        <span className="choice-explain">{t(EXPLAINED[value])}</span>
      </span>
    </label>
  )

  return (
    <form
      className="card stack"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault()
        create.mutate(type, { onSuccess: () => setOpen(false) })
      }}
    >
      <h3 id={titleId}>{t('wallets.createTitle')}</h3>
      <ErrorSummary error={create.error} />
      <fieldset className="choices">
        <legend>{t('wallets.typeLabel')}</legend>
        {common.map(option)}
        {rare.length > 0 && (
          <details className="more-types" open={rare.includes(type) || undefined}>
            <summary>{t('wallets.moreTypes')}</summary>
            <div className="choices">{rare.map(option)}</div>
          </details>
        )}
      </fieldset>
      <div className="row">
        <Button type="submit" busy={create.isPending} {...server.disabledProps}>
          {create.isPending ? t('wallets.creating') : t('wallets.create')}
        </Button>
        <Button variant="quiet" onClick={() => setOpen(false)}>
          {t('wallets.cancel')}
        </Button>
      </div>
      {server.reason}
    </form>
  )
}
