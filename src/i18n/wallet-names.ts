import type { Wallet, WalletType } from '../../contract/wallets.ts'
import type { MessageKey } from './en.ts'
import type { Translate } from './i18n.tsx'

/**
 * docs/product.md §3: the trading wallet is "the P2P wallet" and its label entry uses
 * the value `p2p` (contract WALLET_TYPE_LABELS); every other type labels itself.
 */
export const WALLET_LABEL_ENTRY: Record<WalletType, string> = {
  business: 'business',
  personal: 'personal',
  trading: 'p2p',
  escrow: 'escrow',
  merchant: 'merchant',
  exchange: 'exchange',
  staking: 'staking',
  vault: 'vault',
}

/** "Personal", "P2P": a wallet type as people read it. */
export const walletTypeLabel = (t: Translate, type: WalletType) =>
  t(`wallet.type.${WALLET_LABEL_ENTRY[type]}` as MessageKey)

/** "Personal wallet": how every screen names a wallet. */
export const walletName = (t: Translate, wallet: Pick<Wallet, 'type'>) =>
  t('wallets.walletTitle', { type: walletTypeLabel(t, wallet.type) })
