/** Every route of the app, in one place; links and redirects use these, never literals. */
export const paths = {
  home: '/',
  signIn: '/auth/sign-in',
  signUp: '/auth/sign-up',
  logout: '/auth/logout',
  profile: '/profile',
  wallet: '/wallets/:uuid',
  transaction: '/wallets/:uuid/transactions/:tx',
} as const

const segment = encodeURIComponent

/** Links to the routes with parameters: `href.wallet(uuid)`, never a template literal. */
export const href = {
  wallet: (uuid: string) => `/wallets/${segment(uuid)}`,
  transaction: (uuid: string, tx: string) =>
    `/wallets/${segment(uuid)}/transactions/${segment(tx)}`,
} as const
