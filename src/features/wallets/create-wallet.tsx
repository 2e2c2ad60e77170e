import { useId, useState } from 'react'
import type { WalletType } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { useTenantConfig } from '../../queries/tenant.ts'
import { Button, Notice, SelectField } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { WALLET_TYPES, walletTypeLabel } from './labels.ts'
import { useCreateWallet } from './mutations.ts'

/**
 * "Create wallet": choose a type the tenant offers (all while its
 * configuration is unknown), create it; the list above shows it at once.
 */
export function CreateWallet() {
  const { t } = useI18n()
  const titleId = useId()
  const offered = useTenantConfig()?.wallet_types
  const types = WALLET_TYPES.filter((value) => !offered || offered.includes(value))
  const [open, setOpen] = useState(false)
  const [chosen, setType] = useState<WalletType | undefined>(undefined)
  const type = chosen && types.includes(chosen) ? chosen : (types[0] ?? 'personal')
  const create = useCreateWallet()
  const server = useNeedsServer()

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

  return (
    <form
      className="stack"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault()
        create.mutate(type, { onSuccess: () => setOpen(false) })
      }}
    >
      <h3 id={titleId}>{t('wallets.createTitle')}</h3>
      <ErrorSummary error={create.error} />
      <SelectField
        label={t('wallets.typeLabel')}
        value={type}
        onChange={(event) => setType(event.target.value as WalletType)}
      >
        {types.map((value) => (
          <option key={value} value={value}>
            {walletTypeLabel(t, value)}
          </option>
        ))}
      </SelectField>
      <div className="row">
        <Button type="submit" busy={create.isPending} {...server.disabledProps}>
          {create.isPending ? t('wallets.creating') : t('wallets.create')}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          {t('wallets.cancel')}
        </Button>
      </div>
      {server.reason}
    </form>
  )
}
