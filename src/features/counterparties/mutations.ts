import { useMutation, useQueryClient } from '@tanstack/react-query'
import type {
  Counterparty,
  CreateCounterpartyBody,
  CreateDestinationBody,
  Destination,
  DestinationList,
  UpdateCounterpartyBody,
  UpdateDestinationBody,
} from '../../../contract/counterparties.ts'
import { api } from '../../net/api.ts'
import {
  counterpartiesPath,
  counterpartyKeys,
  counterpartyPath,
  destinationPath,
  destinationsPath,
} from './queries.ts'

/*
 * Every write answers the saved resource: it goes straight into the cache,
 * and the lists it shows up in (name, type, country, destinations count) are
 * read again.
 */

export function useCreateCounterparty(wallet: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateCounterpartyBody) =>
      api.v2.post<Counterparty>(counterpartiesPath(wallet), body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(
        counterpartyKeys.detail(wallet, saved.counterparty_account_id),
        saved,
      )
      await queryClient.invalidateQueries({ queryKey: counterpartyKeys.lists(wallet) })
    },
  })
}

export function useUpdateCounterparty(wallet: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateCounterpartyBody) =>
      api.v2.patch<Counterparty>(counterpartyPath(wallet, id), body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(counterpartyKeys.detail(wallet, id), saved)
      await queryClient.invalidateQueries({ queryKey: counterpartyKeys.lists(wallet) })
    },
  })
}

/** A destination added or removed changes the counterparty's count too. */
async function destinationsChanged(
  queryClient: ReturnType<typeof useQueryClient>,
  wallet: string,
  id: string,
) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: counterpartyKeys.detail(wallet, id) }),
    queryClient.invalidateQueries({ queryKey: counterpartyKeys.lists(wallet) }),
  ])
}

export function useCreateDestination(wallet: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateDestinationBody) =>
      api.v2.post<Destination>(destinationsPath(wallet, id), body),
    onSuccess: async (saved) => {
      queryClient.setQueryData<DestinationList>(
        counterpartyKeys.destinations(wallet, id),
        (list) => (list ? { ...list, data: [...list.data, saved], total: list.total + 1 } : list),
      )
      await destinationsChanged(queryClient, wallet, id)
    },
  })
}

export function useUpdateDestination(wallet: string, id: string, destination: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateDestinationBody) =>
      api.v2.patch<Destination>(destinationPath(wallet, id, destination), body),
    onSuccess: async (saved) => {
      queryClient.setQueryData<DestinationList>(
        counterpartyKeys.destinations(wallet, id),
        (list) =>
          list
            ? {
                ...list,
                data: list.data.map((item) =>
                  item.counterparty_destination_id === destination ? saved : item,
                ),
              }
            : list,
      )
      await queryClient.invalidateQueries({ queryKey: counterpartyKeys.destinations(wallet, id) })
    },
  })
}

export function useDeleteDestination(wallet: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (destination: string) =>
      api.v2.delete<void>(destinationPath(wallet, id, destination)),
    onSuccess: async (_, destination) => {
      queryClient.setQueryData<DestinationList>(
        counterpartyKeys.destinations(wallet, id),
        (list) =>
          list
            ? {
                ...list,
                data: list.data.filter((item) => item.counterparty_destination_id !== destination),
                total: list.total - 1,
              }
            : list,
      )
      await destinationsChanged(queryClient, wallet, id)
    },
  })
}
