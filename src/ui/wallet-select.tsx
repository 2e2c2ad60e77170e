import { useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import type { Wallet } from '../../contract/wallets.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { walletName } from '../i18n/wallet-names.ts'
import { walletsQuery } from '../queries/wallets.ts'
import { SelectField } from './fields.tsx'

/**
 * The wallet a `?wallet=` link asks for, or the first one when it names none
 * (or one that is not this user's): cards and accounts are shown per wallet.
 */
export function useChosenWallet() {
  const wallets = useQuery(walletsQuery())
  const asked = new URLSearchParams(useSearch()).get('wallet')
  const list = wallets.data?.data ?? []
  const wallet = list.find((item) => item.uuid === asked)?.uuid ?? list[0]?.uuid
  return { wallets, list, wallet }
}

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
      label={t('shell.wallet')}
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
