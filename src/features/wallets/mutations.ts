import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChainId } from '../../../contract/catalog.ts'
import type { Wallet, WalletAddress, WalletList, WalletType } from '../../../contract/wallets.ts'
import { api } from '../../net/api.ts'
import { walletKeys } from './queries.ts'

/** A new wallet shows in the list at once; the list is read again to be sure. */
export function useCreateWallet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (type: WalletType) => api.v2.post<Wallet>('/wallets', { type }),
    onSuccess: async (wallet) => {
      queryClient.setQueryData(walletKeys.detail(wallet.uuid), wallet)
      queryClient.setQueryData<WalletList>(walletKeys.list(), (list) =>
        list ? { ...list, data: [...list.data, wallet], total: list.total + 1 } : list,
      )
      await queryClient.invalidateQueries({ queryKey: walletKeys.list() })
    },
  })
}

export function useCreateAddress(walletUuid: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (chain: ChainId) =>
      api.v2.post<WalletAddress>(
        `/wallets/${encodeURIComponent(walletUuid)}/addresses/${chain}`,
        {},
      ),
    onSuccess: (address) => {
      queryClient.setQueryData<{ data: WalletAddress[] }>(
        walletKeys.addresses(walletUuid, address.chain),
        (list) => ({ data: [...(list?.data ?? []), address] }),
      )
    },
  })
}
