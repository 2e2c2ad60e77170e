import { useMutation, useQueryClient } from '@tanstack/react-query'
import type {
  CreatePaymentRequestBody,
  PaidRequest,
  PaymentRequest,
  PayRequestBody,
} from '../../../contract/payment-requests.ts'
import type {
  CreateScheduleBody,
  Schedule,
  UpdateScheduleBody,
} from '../../../contract/schedules.ts'
import type { CreateTransferBody, Transfer } from '../../../contract/transfers.ts'
import { api } from '../../net/api.ts'
import { moneyMoved } from '../../queries/money-moved.ts'
import { peopleKeys } from './people-queries.ts'

const requestPath = (id: string) => `/payment-requests/${encodeURIComponent(id)}`
const schedulePath = (id: string) => `/schedules/${encodeURIComponent(id)}`

/**
 * Pays a person. The body's `request_id` comes from useConfirmOnce: a second
 * tap, a retry or a reload after a lost answer send the same key, and the
 * server answers the first transfer again. A first payment to someone new
 * above the tenant's threshold asks for the second look (net/step-up.ts).
 */
export function useSendTransfer() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateTransferBody) => api.v2.post<Transfer>('/transfers', body),
    onSuccess: async (transfer) => {
      queryClient.setQueryData(peopleKeys.transfer(transfer.id), transfer)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleKeys.recent() }),
        moneyMoved(queryClient),
      ])
    },
  })
}

export function useCreatePaymentRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreatePaymentRequestBody) =>
      api.v2.post<PaymentRequest>('/payment-requests', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.requests() }),
  })
}

export function useCancelPaymentRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.v2.delete<PaymentRequest>(requestPath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.requests() }),
  })
}

/** Pays a request once; `request_id` as for a transfer. */
export function usePayRequest(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: PayRequestBody) => api.v2.post<PaidRequest>(`${requestPath(id)}/pay`, body),
    // The view is read again rather than replaced at once: the screen that paid says so
    // first (its own answer), and a PAID view must not take that screen away before.
    onSuccess: async (paid) => {
      queryClient.setQueryData(peopleKeys.transfer(paid.transfer.id), paid.transfer)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleKeys.request(id) }),
        moneyMoved(queryClient),
      ])
    },
  })
}

export function useCreateSchedule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateScheduleBody) => api.v2.post<Schedule>('/schedules', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.schedules() }),
  })
}

export function useUpdateSchedule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateScheduleBody }) =>
      api.v2.patch<Schedule>(schedulePath(id), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.schedules() }),
  })
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.v2.delete<void>(schedulePath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.schedules() }),
  })
}
