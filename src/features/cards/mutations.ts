import { useMutation, useQueryClient } from '@tanstack/react-query'
import type {
  Card,
  CardDetail,
  CardLimits,
  CreateBalanceCardBody,
  CreateCardBody,
  UpdateCardBody,
} from '../../../contract/cards.ts'
import { api } from '../../net/api.ts'
import { cardKeys, cardPath } from './queries.ts'

/*
 * Actions answer the card without its full fiat account: the detail is read
 * again rather than patched with a shape it does not have, and the lists the
 * card shows up in are read again too.
 */
function useCardChanged() {
  const queryClient = useQueryClient()
  return async (card: Pick<Card, 'id' | 'wallet_uuid'>) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: cardKeys.detail(card.id) }),
      queryClient.invalidateQueries({ queryKey: cardKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: cardKeys.accounts(card.wallet_uuid) }),
    ])
  }
}

export type CardAction = 'freeze' | 'unfreeze'

export function useCardAction(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (action: CardAction) => api.v1.patch<Card>(`${cardPath(card.id)}/${action}`),
    onSuccess: changed,
    // A 409 means the card changed elsewhere: show what it is now.
    onError: () => changed(card),
  })
}

export function useCloseCard(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: () => api.v1.delete<Card>(cardPath(card.id)),
    onSuccess: changed,
  })
}

export function useCardLimits(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (limits: CardLimits) => api.v1.patch<Card>(`${cardPath(card.id)}/limits`, limits),
    onSuccess: changed,
  })
}

export function useRenameCard(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (body: UpdateCardBody) => api.v1.patch<Card>(`${cardPath(card.id)}/update`, body),
    onSuccess: changed,
  })
}

export type IssueCard =
  | { kind: 'stand-alone'; body: CreateCardBody }
  | { kind: 'account'; body: CreateBalanceCardBody }

export function useIssueCard() {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (issue: IssueCard) =>
      issue.kind === 'stand-alone'
        ? api.v1.post<Card>('/issuing/cards/create', issue.body)
        : api.v1.post<Card>('/issuing/cards/balance', issue.body),
    onSuccess: changed,
  })
}
