/** Every route of the app, in one place; links and redirects use these, never literals. */
export const paths = {
  home: '/',
  signIn: '/auth/sign-in',
  signUp: '/auth/sign-up',
  logout: '/auth/logout',
  profile: '/profile',
  /** Passkeys and sessions (issue 21). */
  security: '/profile/security',
  /** A security e-mail's one-tap lockdown link (issue 30): `#token=` in the fragment. */
  lockdownLink: '/lockdown',
  /** The person's check of the day's proof of balances (issue 33). */
  proofs: '/profile/proofs',
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
  /** Issue 31: a statement of the wallet, account or card `?wallet=|account=|card=` names. */
  statements: '/statements',
  /** Issue 31: spending by category and month, balances over time. */
  insights: '/insights',
  /** Issue 32: money to another person (`?wallet=`; `?transfer=` once sent). */
  paySomeone: '/pay-someone',
  /** Issue 32: ask to be paid, and my requests. */
  requestMoney: '/requests/new',
  requests: '/requests',
  /** Issue 32: a payment request's public page, signed in or not (the link people share). */
  paymentRequest: '/pay/:id',
  /** Issue 32: payments that repeat. */
  schedules: '/schedules',
} as const

/** Query strings of links: only the parameters given, in a stable order. */
const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** The names of a path's parameters: `'/wallets/:uuid/transactions/:tx'` → `'uuid' | 'tx'`. */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** A path with its parameters filled in (each encoded), then the query string. */
function fill<P extends string>(
  path: P,
  params: Record<ParamsOf<P>, string>,
  search: Record<string, string | undefined> = {},
): string {
  const values = params as Record<string, string>
  return (
    path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name]!)) + query(search)
  )
}

/**
 * Links to the routes, each built from its path above: `href.wallet(uuid)`,
 * never a template literal, so a path changes in one place.
 */
export const href = {
  wallet: (uuid: string) => fill(paths.wallet, { uuid }),
  transaction: (uuid: string, tx: string) => fill(paths.transaction, { uuid, tx }),
  counterparties: (uuid: string) => fill(paths.counterparties, { uuid }),
  newCounterparty: (uuid: string) => fill(paths.newCounterparty, { uuid }),
  counterparty: (uuid: string, id: string) => fill(paths.counterparty, { uuid, id }),
  /** Money screens take the wallet (and what to preselect) from the query string. */
  send: (
    params: {
      wallet?: string
      currency?: string
      counterparty?: string
      destination?: string
    } = {},
  ) => fill(paths.send, {}, params),
  exchange: (params: { wallet?: string; from?: string; to?: string } = {}) =>
    fill(paths.exchange, {}, params),
  deposit: (params: { wallet?: string; currency?: string } = {}) => fill(paths.deposit, {}, params),
  /** `card`: opened from that card's "Add money" (back and "Done" return to it). */
  topUp: (params: { wallet?: string; account?: string; card?: string } = {}) =>
    fill(paths.topUp, {}, params),
  /** The order history, its filters in the query string so they survive a visit to an order. */
  orders: (params: { wallet?: string; status?: string; type?: string } = {}) =>
    fill(paths.orders, {}, params),
  order: (id: string) => fill(paths.order, { id }),
  cards: (params: { wallet?: string } = {}) => fill(paths.cards, {}, params),
  /** `account` preselects issuing on that fiat account. */
  newCard: (params: { wallet?: string; account?: string } = {}) => fill(paths.newCard, {}, params),
  /** `issued`: the card was just issued, and "Add money" opens by itself (the flow's last step). */
  card: (id: string, params: { issued?: '1' } = {}) => fill(paths.card, { id }, params),
  fiatAccounts: (params: { wallet?: string } = {}) => fill(paths.fiatAccounts, {}, params),
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
      /** Issue 31: days (both included), amount bounds, a status. */
      from?: string
      to?: string
      min?: string
      max?: string
      status?: string
    } = {},
  ) => fill(paths.activity, {}, params),
  activityItem: (id: string) => fill(paths.activityItem, { id }),
  paySomeone: (params: { wallet?: string; transfer?: string } = {}) =>
    fill(paths.paySomeone, {}, params),
  paymentRequest: (id: string) => fill(paths.paymentRequest, { id }),
  /** `next`: where a person goes once signed in (a payment request they opened signed out). */
  signIn: (params: { next?: string } = {}) => fill(paths.signIn, {}, params),
  signUp: (params: { next?: string } = {}) => fill(paths.signUp, {}, params),
  counterpartiesHome: (params: { wallet?: string } = {}) =>
    fill(paths.counterpartiesHome, {}, params),
  /** The wallet lets the page ask v2, which names it in the path. */
  fiatAccount: (id: string, params: { wallet?: string } = {}) =>
    fill(paths.fiatAccount, { id }, params),
  /** One of `wallet`, `account` (with its wallet as `from`) or `card`; `last4` names it. */
  statements: (
    params: {
      wallet?: string
      account?: string
      from?: string
      card?: string
      last4?: string
    } = {},
  ) => fill(paths.statements, {}, params),
} as const
