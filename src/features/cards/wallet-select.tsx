import type { Wallet } from '../../../contract/wallets.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { SelectField } from '../../ui/components.tsx'
import { walletName } from './labels.ts'

/** Which wallet's cards or accounts to show: only when there is a choice to make. */
export function WalletSelect(props: {
  wallets: readonly Wallet[]
  value: string
  onChange: (uuid: string) => void
}) {
  const { t } = useI18n()
  if (props.wallets.length < 2) return null
  return (
    <SelectField
      label={t('cards.wallet')}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    >
      {props.wallets.map((item) => (
        <option key={item.uuid} value={item.uuid}>
          {walletName(t, item)}
        </option>
      ))}
    </SelectField>
  )
}
