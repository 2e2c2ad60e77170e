import type { CardStatus } from '../../../contract/cards.ts'
import type { FiatAccountStatus } from '../../../contract/fiat-accounts.ts'
import type { Translate } from '../../i18n/i18n.tsx'

export const cardStatusLabel = (t: Translate, status: CardStatus) => t(`cards.status.${status}`)

export const accountStatusLabel = (t: Translate, status: FiatAccountStatus) =>
  t(`cards.accountStatus.${status}`)

/** "1 card", "3 cards": the catalogue's plural (Russian has four forms). */
export const cardCountLabel = (t: Translate, count: number) =>
  t('cards.accounts.cardCount', { count })

export const formFactorLabel = (t: Translate, formFactor: 'VIRTUAL' | 'PHYSICAL') =>
  t(`cards.formFactor.${formFactor}`)

/** The card's expiry as printed on it: MM/YY. */
export const printedExpiry = (month: number, year: number) =>
  `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`

/** The number in groups of four, as on the card. */
export const groupedPan = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ')

export { accountName } from '../../i18n/account-names.ts'
export { walletName } from '../../i18n/wallet-names.ts'
