import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AutoTopUp, AutoTopUpBody } from '../../../contract/auto-top-up.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import type {
  ActivateCardBody,
  Card,
  CardDetail,
  CardLimits,
  CreateBalanceCardBody,
  CreateCardBody,
  UpdateCardBody,
} from '../../../contract/cards.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
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
      // An account page lists the card too, and an issue fee changes its balance.
      queryClient.invalidateQueries({ queryKey: [...cardKeys.all, 'fiat-account'] }),
      // An issue fee, a closing's refund, a change of status: the histories
      // must say what the balances beside them already show.
      queryClient.invalidateQueries({ queryKey: cardKeys.transactions() }),
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

/**
 * Replaces the card's controls. A change that loosens them answers 403
 * STEP_UP_REQUIRED: the API client asks the person in place and sends it again.
 */
export function useCardControls(card: CardDetail) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (controls: CardControls) =>
      api.v1.put<CardControls>(`${cardPath(card.id)}/controls`, controls),
    onSuccess: (saved) => queryClient.setQueryData(cardKeys.controls(card.id), saved),
  })
}

export function useRenameCard(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (body: UpdateCardBody) => api.v1.patch<Card>(`${cardPath(card.id)}/update`, body),
    onSuccess: changed,
  })
}

/** Both ways carry a `request_id` fixed for the attempt: a double tap issues one card. */
export type IssueCard =
  | { kind: 'stand-alone'; body: CreateCardBody & { request_id: string } }
  | { kind: 'account'; body: CreateBalanceCardBody & { request_id: string } }

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

/**
 * A physical card, once delivered, is activated with the security code (CVV)
 * printed on it. The code is the mutation's variables: the form resets the
 * mutation once it settles, and an unwatched one leaves the cache at once.
 */
export function useActivateCard(card: CardDetail) {
  const changed = useCardChanged()
  return useMutation({
    mutationFn: (body: ActivateCardBody) =>
      api.v1.patch<Card>(`${cardPath(card.id)}/activate`, body),
    gcTime: 0,
    onSuccess: changed,
    // A 409 CARD_NOT_DELIVERED means the delivery moved on elsewhere: read it again.
    onError: () => changed(card),
  })
}

/** Opens a fiat account in the wallet under a program. */
export function useOpenAccount(wallet: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (programId: string) =>
      api.v2.post<FiatAccount>(`/fiat-accounts/${encodeURIComponent(wallet)}`, {
        program_id: programId,
      }),
    onSuccess: (account) => {
      queryClient.setQueryData(cardKeys.account(account.id), { ...account, cards: [] })
      return queryClient.invalidateQueries({ queryKey: cardKeys.accounts(wallet) })
    },
  })
}

/**
 * Sets a balance account's auto top-up. Leaving it on answers 403
 * STEP_UP_REQUIRED without a fresh proof: the API client asks in place.
 */
export function useAutoTopUp(account: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: AutoTopUpBody) =>
      api.v1.put<AutoTopUp>(`/fiat_accounts/${encodeURIComponent(account)}/auto-top-up`, body),
    onSuccess: (saved) => queryClient.setQueryData(cardKeys.autoTopUp(account), saved),
  })
}
