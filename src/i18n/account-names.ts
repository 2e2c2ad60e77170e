import type { FiatAccount } from '../../contract/fiat-accounts.ts'

/**
 * What tells two fiat accounts of one program apart, wherever one is named
 * (a list, a picker, an order's target): the program's name and the last four
 * digits of the account's number, "EUR balance account ·· 4821" (the dots and
 * digits held together: a line may break before them, never inside).
 */
export const accountName = (account: Pick<FiatAccount, 'program_name' | 'account_last4'>) =>
  `${account.program_name} ··\u00a0${account.account_last4}`
