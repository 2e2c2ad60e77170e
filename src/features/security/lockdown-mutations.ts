import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Lockdown } from '../../../contract/lockdown.ts'
import { api } from '../../net/api.ts'
import { securityKeys } from './queries.ts'

/*
 * Starting and lifting a lockdown (issue 30). Apart from ./mutations.ts, which
 * brings WebAuthn: the banner over every screen lifts with these alone.
 */

/** Both answer the new status: the banner and the section show it at once; sessions were ended. */
function useSettle() {
  const queryClient = useQueryClient()
  return (answer: Lockdown) => {
    queryClient.setQueryData(securityKeys.lockdown(), answer)
    void queryClient.invalidateQueries({ queryKey: securityKeys.sessions() })
  }
}

/** Never asks for the second look: a person who fears for the account is not slowed down. */
export function useStartLockdown() {
  const settle = useSettle()
  return useMutation({
    mutationFn: () => api.v2.post<Lockdown>('/user/lockdown', {}),
    onSuccess: settle,
  })
}

/** Behind the second look the API client asks for, from 10 minutes after the start. */
export function useLiftLockdown() {
  const settle = useSettle()
  return useMutation({
    mutationFn: () => api.v2.delete<Lockdown>('/user/lockdown'),
    onSuccess: settle,
  })
}
