import type { CardStatus } from '../../../contract/cards.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'

export const cardStatusLabel = (t: Translate, status: CardStatus) => t(`cards.status.${status}`)

export const formFactorLabel = (t: Translate, formFactor: 'VIRTUAL' | 'PHYSICAL') =>
  t(`cards.formFactor.${formFactor}`)

/** The card's expiry as printed on it: MM/YY. */
export const printedExpiry = (month: number, year: number) =>
  `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`

/** The number in groups of four, as on the card. */
export const groupedPan = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ')

/*
 * The same words as src/features/orders/labels.ts walletName: features cannot
 * share code except through src/queries or src/ui (noted for the lead).
 */
export const walletName = (t: Translate, wallet: Wallet) =>
  t('wallets.walletTitle', {
    type: t(`wallet.type.${wallet.type === 'trading' ? 'p2p' : wallet.type}` as MessageKey),
  })
