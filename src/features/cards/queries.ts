import { queryOptions } from '@tanstack/react-query'
import type { CardDetail, CardList, CardRevealList } from '../../../contract/cards.ts'
import type { CardProgramList, FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { api } from '../../net/api.ts'

/*
 * Card reads. Number, expiry, CVV and one-time codes are NEVER read through a
 * query: a query's data sits in the cache and the cache is persisted to
 * IndexedDB. They live in the card page's state only (use-card-reveal.ts).
 */

export const cardKeys = {
  all: ['cards'] as const,
  lists: () => [...cardKeys.all, 'list'] as const,
  list: (wallet: string) => [...cardKeys.lists(), wallet] as const,
  detail: (id: string) => [...cardKeys.all, 'detail', id] as const,
  reveals: (id: string) => [...cardKeys.all, 'reveals', id] as const,
  programs: () => [...cardKeys.all, 'programs'] as const,
  accounts: (wallet: string) => [...cardKeys.all, 'fiat-accounts', wallet] as const,
}

/** A person has a handful of cards; one page holds them (the server's MAX_LIMIT). */
const LIST_LIMIT = 100

export const cardPath = (id: string) => `/issuing/cards/${encodeURIComponent(id)}`

export const cardsQuery = (wallet: string) =>
  queryOptions({
    queryKey: cardKeys.list(wallet),
    queryFn: ({ signal }) =>
      api.v1.get<CardList>('/issuing/cards', {
        signal,
        query: { wallet_uuid: wallet, limit: LIST_LIMIT },
      }),
  })

export const cardQuery = (id: string) =>
  queryOptions({
    queryKey: cardKeys.detail(id),
    queryFn: ({ signal }) => api.v1.get<CardDetail>(cardPath(id), { signal }),
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
