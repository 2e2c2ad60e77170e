import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { AutoTopUp } from '../../../contract/auto-top-up.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import type { CardTransactionList } from '../../../contract/card-transactions.ts'
import type { CardDetail, CardList, CardRevealList } from '../../../contract/cards.ts'
import type {
  CardProgramList,
  FiatAccount,
  FiatAccountList,
} from '../../../contract/fiat-accounts.ts'
import { api } from '../../net/api.ts'
import { netConfig } from '../../net/config.ts'
import { cardsRootKey } from '../../queries/money-moved.ts'
import { nextOffset } from '../../queries/pages.ts'
import { onItsWay } from './delivery.ts'

/*
 * Card reads. Number, expiry, CVV and one-time codes are NEVER read through a
 * query: a query's data sits in the cache and the cache is persisted to
 * IndexedDB. They live in the card page's state only (use-card-reveal.ts).
 */

export const cardKeys = {
  /** Shared with the order flow, whose top-ups move money into card accounts. */
  all: cardsRootKey,
  lists: () => [...cardKeys.all, 'list'] as const,
  list: (wallet: string) => [...cardKeys.lists(), wallet] as const,
  detail: (id: string) => [...cardKeys.all, 'detail', id] as const,
  reveals: (id: string) => [...cardKeys.all, 'reveals', id] as const,
  controls: (id: string) => [...cardKeys.all, 'controls', id] as const,
  programs: () => [...cardKeys.all, 'programs'] as const,
  accounts: (wallet: string) => [...cardKeys.all, 'fiat-accounts', wallet] as const,
  /** Under `accounts(wallet)`, so whatever changes an account's cards reads both again. */
  accountPages: (wallet: string) => [...cardKeys.accounts(wallet), 'pages'] as const,
  account: (id: string) => [...cardKeys.all, 'fiat-account', id] as const,
  autoTopUp: (account: string) => [...cardKeys.all, 'auto-top-up', account] as const,
  transactions: () => [...cardKeys.all, 'transactions'] as const,
  cardTransactions: (card: string) => [...cardKeys.transactions(), 'card', card] as const,
  accountTransactions: (account: string) =>
    [...cardKeys.transactions(), 'account', account] as const,
}

/** A person has a handful of cards; one page holds them (the server's MAX_LIMIT). */
const LIST_LIMIT = 100

export const cardPath = (id: string) => `/issuing/cards/${encodeURIComponent(id)}`

/** The card's transactions as CSV (v1, streamed); the auth proxy adds the raw token. */
export const cardCsvUrl = (id: string) =>
  `${netConfig.v1Base}/issuing/transactions/csv?card_id=${encodeURIComponent(id)}`

export const cardsQuery = (wallet: string) =>
  queryOptions({
    queryKey: cardKeys.list(wallet),
    queryFn: ({ signal }) =>
      api.v1.get<CardList>('/issuing/cards', {
        signal,
        query: { wallet_uuid: wallet, limit: LIST_LIMIT },
      }),
  })

/** How often a card on its way is read again: the stepper follows the courier. */
export const DELIVERY_POLL_MS = 5_000

export const cardQuery = (id: string) =>
  queryOptions({
    queryKey: cardKeys.detail(id),
    queryFn: ({ signal }) => api.v1.get<CardDetail>(cardPath(id), { signal }),
    // Until DELIVERED, then never again. Only while the page is visible:
    // refetchIntervalInBackground stays false.
    refetchInterval: (query) =>
      query.state.data && onItsWay(query.state.data) ? DELIVERY_POLL_MS : false,
  })

/** Who saw this card's secrets and when: only meaningful fresh, so not kept on the device. */
export const revealsQuery = (id: string) =>
  queryOptions({
    queryKey: cardKeys.reveals(id),
    queryFn: ({ signal }) =>
      api.v1.get<CardRevealList>(`${cardPath(id)}/reveals`, {
        signal,
        query: { limit: LIST_LIMIT },
      }),
    meta: { persist: false },
  })

export const programsQuery = () =>
  queryOptions({
    queryKey: cardKeys.programs(),
    queryFn: ({ signal }) =>
      api.v1.get<CardProgramList>('/issuing/config/programs', {
        signal,
        query: { limit: LIST_LIMIT },
      }),
  })

export const fiatAccountsQuery = (wallet: string) =>
  queryOptions({
    queryKey: cardKeys.accounts(wallet),
    queryFn: ({ signal }) =>
      api.v2.get<FiatAccountList>(`/fiat-accounts/${encodeURIComponent(wallet)}`, {
        signal,
        query: { limit: LIST_LIMIT },
      }),
  })

/** Rows per page of the paged lists (transactions, accounts). */
export const PAGE_SIZE = 20

/** A card's or an account's transactions, a page at a time: one shape for both lists. */
const activityPages = (
  queryKey: readonly string[],
  fetchPage: (offset: number, signal: AbortSignal) => Promise<CardTransactionList>,
) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ signal, pageParam }) => fetchPage(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  })
export type ActivityQuery = ReturnType<typeof activityPages>

export const cardTransactionsQuery = (card: string) =>
  activityPages(cardKeys.cardTransactions(card), (offset, signal) =>
    api.v1.get<CardTransactionList>('/issuing/transactions/', {
      signal,
      query: { card_id: card, new_scheme: true, limit: PAGE_SIZE, offset },
    }),
  )

const accountPath = (wallet: string, account: string) =>
  `/fiat-accounts/${encodeURIComponent(wallet)}/${encodeURIComponent(account)}`

export const accountTransactionsQuery = (wallet: string, account: string) =>
  activityPages(cardKeys.accountTransactions(account), (offset, signal) =>
    api.v2.get<CardTransactionList>(`${accountPath(wallet, account)}/transactions`, {
      signal,
      query: { limit: PAGE_SIZE, offset },
    }),
  )

/** A wallet's accounts with their cards, a page at a time (the accounts screen). */
export const accountPagesQuery = (wallet: string) =>
  infiniteQueryOptions({
    queryKey: cardKeys.accountPages(wallet),
    queryFn: ({ signal, pageParam }) =>
      api.v2.get<FiatAccountList>(`/fiat-accounts/${encodeURIComponent(wallet)}`, {
        signal,
        query: { show_cards: true, limit: PAGE_SIZE, offset: pageParam },
      }),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
  })

/**
 * One account with its cards. v2 names the wallet in the path; a link
 * without it (typed by hand, an old bookmark) asks v1, which needs none and
 * answers the same account.
 */
export const accountQuery = (id: string, wallet: string | undefined) =>
  queryOptions({
    queryKey: cardKeys.account(id),
    queryFn: ({ signal }) =>
      wallet
        ? api.v2.get<FiatAccount>(accountPath(wallet, id), { signal, query: { show_cards: true } })
        : api.v1.get<FiatAccount>(`/fiat_accounts/${encodeURIComponent(id)}`, {
            signal,
            query: { show_cards: true },
          }),
  })

/** What the card may be used for (issue 30): channels, categories, countries, merchants. */
export const cardControlsQuery = (id: string) =>
  queryOptions({
    queryKey: cardKeys.controls(id),
    queryFn: ({ signal }) => api.v1.get<CardControls>(`${cardPath(id)}/controls`, { signal }),
  })

/** A balance card account's auto top-up (issue 30), with today's use and the last try. */
export const autoTopUpQuery = (account: string) =>
  queryOptions({
    queryKey: cardKeys.autoTopUp(account),
    queryFn: ({ signal }) =>
      api.v1.get<AutoTopUp>(`/fiat_accounts/${encodeURIComponent(account)}/auto-top-up`, {
        signal,
      }),
  })
