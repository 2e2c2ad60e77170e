import type { Remote } from 'comlink'
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
 * card page that is left takes the worker's heap with it. comlink comes with
 * the first reveal too: the card page loads without it, and so does every
 * route in the first download's list of what each needs (a comlink chunk
 * named there cost ~40 bytes of its budget).
 */
export function openCardSecrets(): CardSecretsClient {
  let worker: Worker | undefined
  let remote: Promise<Remote<CardSecretsApi>> | undefined
  return {
    async reveal(cardId) {
      remote ??= import('comlink').then(({ wrap }) => {
        worker = new Worker(new URL('./card-secrets.worker.ts', import.meta.url), {
          type: 'module',
          name: 'card-secrets',
        })
        return wrap<CardSecretsApi>(worker)
      })
      const result = await (await remote).reveal(cardId, launchHeaders())
      if (!result.ok) throw new CardSecretsError(result.message, result.failure)
      return result.secrets
    },
    close() {
      // Ending the worker ends its side of the channel: nothing is left to release.
      worker?.terminate()
      remote = undefined
      worker = undefined
    },
  }
}
