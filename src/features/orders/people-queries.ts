import { queryOptions } from '@tanstack/react-query'
import type {
  PaymentRequest,
  PaymentRequestList,
  PaymentRequestView,
} from '../../../contract/payment-requests.ts'
import type { Schedule, ScheduleList } from '../../../contract/schedules.ts'
import type { PersonLookup, RecentPeople, Transfer } from '../../../contract/transfers.ts'
import { api } from '../../net/api.ts'
import type { Contact } from './contact.ts'

/**
 * Query keys of paying people (issue 32): transfers, the picker's people,
 * payment requests and schedules. Mutations invalidate through these.
 */
export const peopleKeys = {
  all: ['people'] as const,
  recent: () => [...peopleKeys.all, 'recent'] as const,
  lookup: (contact: Contact) => [...peopleKeys.all, 'lookup', contact] as const,
  transfer: (id: string) => [...peopleKeys.all, 'transfer', id] as const,
  requests: () => [...peopleKeys.all, 'requests'] as const,
  request: (id: string) => [...peopleKeys.all, 'request', id] as const,
  schedules: () => [...peopleKeys.all, 'schedules'] as const,
}

/** How many of my requests and schedules a screen lists: people keep a handful. */
export const PEOPLE_LIST_LIMIT = 50

export const recentPeopleQuery = () =>
  queryOptions({
    queryKey: peopleKeys.recent(),
    queryFn: ({ signal }) => api.v2.get<RecentPeople>('/people/recent', { signal }),
  })

/**
 * Who a contact is, if they let people find them. The answer does not change
 * while the person types the rest of a payment, and each look-up counts
 * against a per-minute limit: kept for the screen's life, never retried.
 */
export const lookupQuery = (contact: Contact) =>
  queryOptions({
    queryKey: peopleKeys.lookup(contact),
    queryFn: ({ signal }) =>
      api.v2.get<PersonLookup>('/people/lookup', { signal, query: { ...contact } }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })

export const transferQuery = (id: string) =>
  queryOptions({
    queryKey: peopleKeys.transfer(id),
    queryFn: ({ signal }) =>
      api.v2.get<Transfer>(`/transfers/${encodeURIComponent(id)}`, { signal }),
  })

export const paymentRequestsQuery = () =>
  queryOptions({
    queryKey: peopleKeys.requests(),
    queryFn: ({ signal }) =>
      api.v2.get<PaymentRequestList>('/payment-requests', {
        signal,
        query: { limit: PEOPLE_LIST_LIMIT },
      }),
  })

/** The public view anyone with the link reads, signed in or not. */
export const paymentRequestQuery = (id: string) =>
  queryOptions({
    queryKey: peopleKeys.request(id),
    queryFn: ({ signal }) =>
      api.v2.get<PaymentRequestView>(`/payment-requests/${encodeURIComponent(id)}`, { signal }),
  })

export const schedulesQuery = () =>
  queryOptions({
    queryKey: peopleKeys.schedules(),
    queryFn: ({ signal }) =>
      api.v2.get<ScheduleList>('/schedules', { signal, query: { limit: PEOPLE_LIST_LIMIT } }),
  })

export type { PaymentRequest, Schedule }
