import type { Remote } from 'comlink'
import type { Verdict, VerifyRequest } from './proof-verify.ts'
import type { ProofVerifyApi } from './proof-verify.worker.ts'

export interface ProofVerifierClient {
  verify(request: VerifyRequest): Promise<Verdict>
  /** Pins the tenant's new key, when it verifies the proof. */
  trust(request: VerifyRequest): Promise<Verdict>
  close(): void
}

/**
 * The main thread's side of the proof worker. The worker starts on the first
 * check (Vite emits it as its own chunk) and ends on close(), when the proof
 * screen is left; comlink comes with that first check.
 */
export function openProofVerifier(): ProofVerifierClient {
  let worker: Worker | undefined
  let remote: Promise<Remote<ProofVerifyApi>> | undefined
  const started = () => {
    remote ??= import('comlink').then(({ wrap }) => {
      worker = new Worker(new URL('./proof-verify.worker.ts', import.meta.url), {
        type: 'module',
        name: 'proof-verify',
      })
      return wrap<ProofVerifyApi>(worker)
    })
    return remote
  }
  return {
    verify: async (request) => (await started()).verify(request),
    trust: async (request) => (await started()).trust(request),
    close() {
      worker?.terminate()
      worker = undefined
      remote = undefined
    },
  }
}
