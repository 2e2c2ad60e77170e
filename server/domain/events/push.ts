import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import webpush from 'web-push'
import type { PushMessage } from '../../../contract/events.ts'
import { postGuarded, type ReachPolicy } from './webhook-client.ts'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

/**
 * The VAPID key pair when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are not set:
 * generated on first start into DATA_DIR/vapid.json (mode 0600) and kept, since
 * every browser subscription is bound to the public key it was made with.
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid.json')
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as VapidKeys
  try {
    return read()
  } catch {
    mkdirSync(dataDir, { recursive: true })
    const keys = webpush.generateVAPIDKeys()
    try {
      writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
      return keys
    } catch {
      // Another process wrote it first: theirs are the keys.
      return read()
    }
  }
}

export interface PushTarget {
  endpoint: string
  p256dh: string
  auth: string
}

export interface PushOutcome {
  ok: boolean
  status: number | null
  /** The push service says the subscription no longer exists (404/410): forget it. */
  gone: boolean
  error: string | null
}

/**
 * Sends encrypted web push messages (RFC 8291) signed with the VAPID keys
 * (RFC 8292). web-push builds the request; it goes out through the same
 * guarded POST as webhooks, since a subscription's endpoint comes from the
 * browser and could name any address.
 */
export class WebPushSender {
  constructor(
    private readonly keys: VapidKeys,
    private readonly subject: string,
    private readonly policy: ReachPolicy,
  ) {}

  get publicKey() {
    return this.keys.publicKey
  }

  async send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    let request: ReturnType<typeof webpush.generateRequestDetails>
    try {
      request = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(message),
        { vapidDetails: { subject: this.subject, ...this.keys }, TTL: 24 * 3600 },
      )
    } catch (error) {
      // Keys a browser never made: trying again cannot help.
      const text = error instanceof Error ? error.message : String(error)
      return { ok: false, status: null, gone: true, error: text.slice(0, 500) }
    }
    const outcome = await postGuarded(
      request.endpoint,
      request.body ?? '',
      request.headers,
      this.policy,
    )
    return { ...outcome, gone: outcome.status === 404 || outcome.status === 410 }
  }
}
