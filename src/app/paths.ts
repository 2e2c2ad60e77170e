/** Every route of the app, in one place; links and redirects use these, never literals. */
export const paths = {
  home: '/',
  signIn: '/auth/sign-in',
  signUp: '/auth/sign-up',
  logout: '/auth/logout',
  profile: '/profile',
  /** Passkeys and sessions (issue 21). */
  security: '/profile/security',
  wallet: '/wallets/:uuid',
  transaction: '/wallets/:uuid/transactions/:tx',
  counterparties: '/wallets/:uuid/counterparties',
  newCounterparty: '/wallets/:uuid/counterparties/new',
  counterparty: '/wallets/:uuid/counterparties/:id',
  send: '/send',
  exchange: '/exchange',
  deposit: '/deposit',
  topUp: '/top-up',
  orders: '/orders',
  order: '/orders/:id',
  cards: '/cards',
  newCard: '/cards/new',
  card: '/cards/:id',
  verify: '/verify',
  /** The five tabs' own screens (issue 13): the money actions, and everything that happened. */
  move: '/move',
  activity: '/activity',
  /** One thing that happened, in words, with its technical details (issue 14). */
  activityItem: '/activity/:id',
  /** The counterparty book of the wallet `?wallet=` names (the first one otherwise). */
  counterpartiesHome: '/counterparties',
  developer: '/developer',
  fiatAccounts: '/accounts',
  fiatAccount: '/accounts/:id',
  /** Issue 20: the notification centre. */
  notifications: '/notifications',
} as const

const segment = encodeURIComponent

/** Query strings of links: only the parameters given, in a stable order. */
const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** Links to the routes with parameters: `href.wallet(uuid)`, never a template literal. */
export const href = {
  wallet: (uuid: string) => `/wallets/${segment(uuid)}`,
  transaction: (uuid: string, tx: string) =>
    `/wallets/${segment(uuid)}/transactions/${segment(tx)}`,
  counterparties: (uuid: string) => `/wallets/${segment(uuid)}/counterparties`,
  newCounterparty: (uuid: string) => `/wallets/${segment(uuid)}/counterparties/new`,
  counterparty: (uuid: string, id: string) =>
    `/wallets/${segment(uuid)}/counterparties/${segment(id)}`,
  /** Money screens take the wallet (and what to preselect) from the query string. */
  send: (
    params: {
      wallet?: string
      currency?: string
      counterparty?: string
      destination?: string
    } = {},
  ) => `/send${query(params)}`,
  exchange: (params: { wallet?: string; from?: string; to?: string } = {}) =>
    `/exchange${query(params)}`,
  deposit: (params: { wallet?: string; currency?: string } = {}) => `/deposit${query(params)}`,
  topUp: (params: { wallet?: string; account?: string } = {}) => `/top-up${query(params)}`,
  /** The order history, its filters in the query string so they survive a visit to an order. */
  orders: (params: { wallet?: string; status?: string; type?: string } = {}) =>
    `/orders${query(params)}`,
  order: (id: string) => `/orders/${segment(id)}`,
  cards: (params: { wallet?: string } = {}) => `/cards${query(params)}`,
  /** `account` preselects issuing on that fiat account. */
  newCard: (params: { wallet?: string; account?: string } = {}) => `/cards/new${query(params)}`,
  card: (id: string) => `/cards/${segment(id)}`,
  fiatAccounts: (params: { wallet?: string } = {}) => `/accounts${query(params)}`,
  /** The feed's search and filters live in the query string, so they survive a visit to an item. */
  activity: (
    params: {
      wallet?: string
      type?: string
      currency?: string
      q?: string
      /** One card's items; its last four name the filter. */
      card?: string
      card_last4?: string
    } = {},
  ) => `/activity${query(params)}`,
  activityItem: (id: string) => `/activity/${segment(id)}`,
  counterpartiesHome: (params: { wallet?: string } = {}) => `/counterparties${query(params)}`,
  /** The wallet lets the page ask v2, which names it in the path. */
  fiatAccount: (id: string, params: { wallet?: string } = {}) =>
    `/accounts/${segment(id)}${query(params)}`,
} as const
