import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { KycStatus } from '../../../contract/enums.ts'
import type { KycStatusReply, KycToken, SandboxApplicantBody } from '../../../contract/kyc.ts'
import { api } from '../../net/api.ts'

export const kycKeys = {
  all: ['kyc'] as const,
  status: () => [...kycKeys.all, 'status'] as const,
}

/**
 * How often the page asks again while the provider is deciding: every few
 * seconds while PENDING (the sandbox decides within SANDBOX_KYC_MS, a real
 * provider often within minutes), rarely while HOLD (a person reviews it),
 * never once decided.
 */
export function pollInterval(status: KycStatus | undefined): number | false {
  if (status === 'PENDING') return 2_000
  if (status === 'HOLD') return 15_000
  return false
}

export const kycStatusQuery = () =>
  queryOptions({
    queryKey: kycKeys.status(),
    queryFn: ({ signal }) => api.v1.get<KycStatusReply>('/kyc/status', { signal }),
    refetchInterval: (query) => pollInterval(query.state.data?.status),
  })

/** A token for the provider's SDK (the sandbox's too: it says which screen to show). */
export const useKycToken = () =>
  useMutation({
    mutationFn: () => api.v1.post<KycToken>('/kyc/sumsub/generate_token', {}),
  })

/** The sandbox screen's submission; the answer is the new status (PENDING). */
export function useSubmitSandboxApplicant() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SandboxApplicantBody) =>
      api.v1.post<KycStatusReply>('/kyc/sandbox/applicant', body),
    onSuccess: (status) => queryClient.setQueryData(kycKeys.status(), status),
  })
}
