import type { FiatAccount } from '../../contract/fiat-accounts.ts'
import type { Translate } from './i18n.tsx'

/**
 * How every screen names a fiat account. A stand-alone card's account is
 * that card's and nothing else's, so it is named as the card is: its name and
 * last four digits, "Online shopping ·· 3044" (an unnamed card "Card ··
 * 3044") — read with its cards (`show_cards=true`). Any other account by what
 * tells two of a program apart: the program's name and the last four digits
 * of the account's number, "EUR balance account ·· 4821". The dots and
 * digits are held together: a line may break before them, never inside.
 */
export function accountName(
  t: Translate,
  account: Pick<FiatAccount, 'program_name' | 'account_last4' | 'stand_alone' | 'cards'>,
): string {
  const card = account.stand_alone && account.cards?.length === 1 ? account.cards[0] : undefined
  return card
    ? `${card.nick_name ?? t('wallet.unnamedCard')} ··\u00a0${card.last4}`
    : `${account.program_name} ··\u00a0${account.account_last4}`
}
