import { type Remote, releaseProxy, wrap } from 'comlink'
import { launchHeaders } from '../net/page-proxy.ts'
import { CardSecretsError, type RevealedSecrets } from './card-secrets.ts'
import type { CardSecretsApi } from './card-secrets.worker.ts'

export interface CardSecretsClient {
  reveal(cardId: string): Promise<RevealedSecrets>
  /** Ends the worker, and with it every copy of a secret in its memory. */
  close(): void
}

/**
 * The main thread's side of the card-secret worker. The worker starts on the
 * first reveal (Vite emits it as its own chunk) and ends on close(), so a
 * card page that is left takes the worker's heap with it.
 */
export function openCardSecrets(): CardSecretsClient {
  let worker: Worker | undefined
  let remote: Remote<CardSecretsApi> | undefined
  return {
    async reveal(cardId) {
      if (!remote) {
        worker = new Worker(new URL('./card-secrets.worker.ts', import.meta.url), {
          type: 'module',
          name: 'card-secrets',
        })
        remote = wrap<CardSecretsApi>(worker)
      }
      const result = await remote.reveal(cardId, launchHeaders())
      if (!result.ok) throw new CardSecretsError(result.message, result.failure)
      return result.secrets
    },
    close() {
      remote?.[releaseProxy]()
      worker?.terminate()
      remote = undefined
      worker = undefined
    },
  }
}
