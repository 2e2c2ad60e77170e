import { queryOptions } from '@tanstack/react-query'
import type { PasswordStatus } from '../../../contract/auth.ts'
import type { Lockdown } from '../../../contract/lockdown.ts'
import type { PasskeyList, SessionList, StepUpStatus } from '../../../contract/security.ts'
import { api } from '../../net/api.ts'

/** Query keys of this feature; mutations invalidate through these, never by literal. */
export const securityKeys = {
  all: ['security'] as const,
  passkeys: () => [...securityKeys.all, 'passkeys'] as const,
  sessions: () => [...securityKeys.all, 'sessions'] as const,
  stepUp: () => [...securityKeys.all, 'step-up'] as const,
  password: () => [...securityKeys.all, 'password'] as const,
  lockdown: () => [...securityKeys.all, 'lockdown'] as const,
}

/** Whether the account has a password, and when it last changed. */
export const passwordQuery = () =>
  queryOptions({
    queryKey: securityKeys.password(),
    queryFn: ({ signal }) => api.v2.get<PasswordStatus>('/user/password', { signal }),
  })

export const passkeysQuery = () =>
  queryOptions({
    queryKey: securityKeys.passkeys(),
    queryFn: ({ signal }) => api.v2.get<PasskeyList>('/user/passkeys', { signal }),
  })

/** Live sessions; 50 covers any real person's devices on one screen. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: securityKeys.sessions(),
    queryFn: ({ signal }) =>
      api.v2.get<SessionList>('/user/sessions', { signal, query: { limit: 50 } }),
  })

/**
 * How this session can confirm it is the person. Never cached across
 * openings of the dialog: the answer depends on the last proof's time.
 */
export const stepUpQuery = () =>
  queryOptions({
    queryKey: securityKeys.stepUp(),
    queryFn: ({ signal }) => api.v2.get<StepUpStatus>('/user/step-up', { signal }),
    staleTime: 0,
    gcTime: 0,
  })

/** Whether the account is locked down ("That wasn't me", issue 30), and what that refuses. */
export const lockdownQuery = () =>
  queryOptions({
    queryKey: securityKeys.lockdown(),
    queryFn: ({ signal }) => api.v2.get<Lockdown>('/user/lockdown', { signal }),
  })
