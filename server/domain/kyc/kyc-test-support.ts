/** The identity-verification calls the KYC tests share, as the sandbox provider is driven. */
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { KycStatusReply } from '../../../contract/kyc.ts'
import { bearer, headers, signUp } from '../../test-support.ts'

/** How long the sandbox provider takes to decide, in these tests. */
export const DECISION_MS = 3_000

/** A submission the sandbox's rules approve. */
export const applicant = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  document_type: 'PASSPORT',
  country: 'GB',
  selfie: true,
}

/** The KYC calls a person makes (v1 takes the raw token), and the sandbox's review job. */
export function kycCalls(app: () => FastifyInstance) {
  const v1 = (token: string) => headers({ authorization: token })
  const status = async (token: string) => {
    const response = await app().inject({
      method: 'GET',
      url: '/api/v1/kyc/status',
      headers: v1(token),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<KycStatusReply>()
  }
  const submit = (token: string, body: Record<string, unknown> = applicant) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/kyc/sandbox/applicant',
      headers: v1(token),
      payload: body,
    })
  const generateToken = (token: string) =>
    app().inject({ method: 'POST', url: '/api/v1/kyc/sumsub/generate_token', headers: v1(token) })
  /** Runs the sandbox's review job as if `ms` had passed since now. */
  const after = (ms: number) => app().jobs.runDue({ now: new Date(Date.now() + ms) })
  const unverified = async () => (await signUp(app(), { kyc: false })).access_token

  const userData = async (token: string) => {
    const response = await app().inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(token)),
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ first_name: string | null; last_name: string | null }>()
  }

  const userId = async (token: string) => {
    const response = await app().inject({
      method: 'GET',
      url: '/api/v2/user',
      headers: headers(bearer(token)),
    })
    return response.json<{ id: string }>().id
  }

  return { v1, status, submit, generateToken, after, unverified, userData, userId }
}
