import { expose } from 'comlink'
import { createAuthProxy } from '../net/auth-proxy.ts'
import { LOGOUT_CHANNEL, type LogoutMessage, netConfig } from '../net/config.ts'
import { webLocks } from '../net/locks.ts'
import { withHeaders } from '../net/page-proxy.ts'
import { openTokenVault } from '../storage/token-vault.ts'
import {
  CardSecretsError,
  createCardSecrets,
  type ExchangeFailure,
  type RevealedSecrets,
} from './card-secrets.ts'

/**
 * The card-secret worker: the whole exchange runs here, so the key, the
 * sealed answer and the decrypted JSON never exist on the main thread; the
 * page gets the three fields only.
 *
 * A worker has no page proxy in front of its fetch, so it runs the same
 * auth-proxy core with the same token vault (IndexedDB) and refresh lock (Web
 * Locks). While a service worker controls this worker, requests go to it
 * plainly, exactly as the page does; were both to run, the headers they set
 * are the same and the result is still right.
 */
const channel = 'BroadcastChannel' in globalThis ? new BroadcastChannel(LOGOUT_CHANNEL) : undefined

const proxy = createAuthProxy({
  config: netConfig,
  vault: openTokenVault(),
  fetch: (request) => fetch(request),
  locks: webLocks(),
  // The worker cannot navigate: every window of the app (this tab included)
  // listens on the channel and follows.
  onLogout(location) {
    channel?.postMessage({ type: 'auth:logout', location } satisfies LogoutMessage)
  },
})

const controlled = () =>
  Boolean(
    (globalThis.navigator as { serviceWorker?: ServiceWorkerContainer } | undefined)?.serviceWorker
      ?.controller,
  )

/**
 * What the page's proxy adds to its own requests (in the Telegram Mini App:
 * `X-App-Env: telegram` and the init data), handed over with each reveal:
 * a worker cannot read the launch parameters itself.
 */
let pageHeaders: Record<string, string> = {}

const secrets = createCardSecrets({
  send: (request) => {
    const stated = withHeaders(request, pageHeaders)
    return controlled() ? fetch(stated) : proxy.handle(stated)
  },
  v1Base: netConfig.v1Base,
  origin: globalThis.location.origin,
  pinnedPublicKey: import.meta.env.VITE_CARD_SECRET_PUBLIC_KEY,
})

/** Errors cross the boundary as data: a thrown class would arrive as a bare Error. */
export type RevealResult =
  | { ok: true; secrets: RevealedSecrets }
  | { ok: false; message: string; failure: ExchangeFailure | undefined }

const api = {
  async reveal(cardId: string, headers: Record<string, string> = {}): Promise<RevealResult> {
    pageHeaders = headers
    try {
      return { ok: true, secrets: await secrets.reveal(cardId) }
    } catch (error) {
      if (error instanceof CardSecretsError) {
        return { ok: false, message: error.message, failure: error.failure }
      }
      return { ok: false, message: String((error as Error)?.message ?? error), failure: undefined }
    }
  },
}

export type CardSecretsApi = typeof api

expose(api)
