import { useMutation, useQueryClient } from '@tanstack/react-query'
import type {
  EmailChangeConfirm,
  EmailChangeRequest,
  OtpSent,
  PhoneChangeConfirm,
  PhoneChangeRequest,
} from '../../../contract/otp.ts'
import type { User, UserData, UserDataPatch } from '../../../contract/user.ts'
import { api } from '../../net/api.ts'
import { userKeys } from '../../queries/user.ts'
import type { CodeCheck } from '../../ui/otp-steps.tsx'

/** Sends only what changed; the answer is the whole profile as now stored. */
export function useUpdateUserData() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (patch: UserDataPatch) => api.v2.patch<UserData>('/user/user-data', patch),
    onSuccess: (data) => queryClient.setQueryData(userKeys.data(), data),
  })
}

/** Step one of a contact change: a code goes to the new address or number. */
export const useRequestContactChange = (channel: 'email' | 'sms') =>
  useMutation({
    mutationFn: (target: string) =>
      channel === 'email'
        ? api.v2.patch<OtpSent>('/user/email', { email: target } satisfies EmailChangeRequest)
        : api.v2.patch<OtpSent>('/user/phone', { phone: target } satisfies PhoneChangeRequest),
  })

/** Step two: the code proves the new contact is the person's; the user is read again. */
export function useConfirmContactChange(channel: 'email' | 'sms') {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ target, code }: CodeCheck) =>
      channel === 'email'
        ? api.v2.post<User>('/user/email', {
            email: target,
            token: code,
          } satisfies EmailChangeConfirm)
        : api.v2.post<User>('/user/phone', {
            phone: target,
            token: code,
          } satisfies PhoneChangeConfirm),
    onSuccess: async (user) => {
      queryClient.setQueryData(userKeys.me(), user)
      await queryClient.invalidateQueries({ queryKey: userKeys.all })
    },
  })
}
