import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChainId } from '../../../contract/catalog.ts'
import type { WalletAddress } from '../../../contract/wallets.ts'
import { api } from '../../net/api.ts'
import { walletKeys } from './queries.ts'

export { useCreateWallet } from '../../queries/create-wallet.ts'

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
