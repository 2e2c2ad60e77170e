import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Wallet, WalletList, WalletType } from '../../contract/wallets.ts'
import { api } from '../net/api.ts'
import { walletKeys } from './wallets.ts'

/*
 * Apart from the reads in ./wallets.ts, which the app asks for at boot
 * (src/app/boot.ts): a write has no place in the first download.
 */

/**
 * A new wallet (home's "Create wallet", or the one-tap answer where a screen
 * needs a wallet): it shows in the list at once; the list is read again to be sure.
 */
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
