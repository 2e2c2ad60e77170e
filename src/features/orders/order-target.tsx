import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { OrderTarget, OrderType } from '../../../contract/orders.ts'
import { accountName } from '../../i18n/account-names.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { inFours } from '../../ui/copy-button.tsx'
import { walletName } from './labels.ts'
import { chainsQuery, fiatAccountsQuery, walletsQuery } from './queries.ts'

/** What a quote and an order share about where the money goes. */
export interface Targeted {
  order_type: OrderType
  wallet_uuid: string
  target: OrderTarget
  to: { currency: string }
}

/** A term and its value, as PriceLines lists them. */
export type Row = [string, ReactNode]

export { inFours }

/**
 * Where the money goes, in the person's language. The server's `display`
 * is English for kinds it words itself (a deposit, a wallet, a card
 * account), so those are worded here from the target's fields; it is used
 * only where it is data — a counterparty's name with a masked number, a
 * masked address.
 */
export function useTargetText(order: Targeted): string {
  const { t } = useI18n()
  const { target } = order
  const wallets = useQuery(walletsQuery())
  const accounts = useQuery({
    ...fiatAccountsQuery(target.wallet_uuid ?? order.wallet_uuid),
    enabled: target.kind === 'fiat_account',
  })
  const ownWallet = (uuid: string | null) => {
    const wallet = wallets.data?.data.find((candidate) => candidate.uuid === uuid)
    return wallet && walletName(t, wallet)
  }
  switch (target.kind) {
    case 'bank_deposit':
      return t('orders.target.bankDeposit', {
        wallet: ownWallet(target.wallet_uuid ?? order.wallet_uuid) ?? t('orders.target.thisWallet'),
        rail: order.order_type === 'DEPOSIT_FIAT_SWIFT' ? 'SWIFT' : 'SEPA',
      })
    case 'wallet':
      // A saved recipient, or a typed address, that lands in a wallet on the platform.
      if (target.counterparty_account_id !== null || target.address !== null) return target.display
      return ownWallet(target.wallet_uuid) ?? t('orders.target.otherWallet')
    case 'fiat_account': {
      const account = accounts.data?.data.find(
        (candidate) => candidate.id === target.fiat_account_id,
      )
      return account
        ? t('orders.target.fiatAccount', {
            program: accountName(t, account),
            currency: account.currency,
          })
        : t('orders.target.cardAccount', { currency: order.to.currency })
    }
    default:
      return target.display
  }
}

/**
 * The target as review and detail list it: where it goes, then — for crypto
 * — the address in full, in groups of four, and its network. Address
 * poisoning copies the first and last characters; only the whole address
 * tells two apart, so it is never shortened here.
 */
export function useTargetRows(order: Targeted, label: string): Row[] {
  const { t } = useI18n()
  const text = useTargetText(order)
  const { target } = order
  const chains = useQuery({ ...chainsQuery(), enabled: target.chain !== null })
  const address = target.address && (
    <code key="address" className="address-text grouped" data-testid="target-address">
      {inFours(target.address)}
    </code>
  )
  const rows: Row[] =
    target.kind === 'address' && address
      ? [[label, address]]
      : [[label, text], ...(address ? [[t('orders.target.address'), address] as Row] : [])]
  if (target.chain) {
    const chain = chains.data?.data.find((candidate) => candidate.id === target.chain)
    rows.push([t('orders.target.network'), chain?.name ?? target.chain])
  }
  return rows
}
