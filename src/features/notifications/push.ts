import type { PushSubscriptionBody } from '../../../contract/events.ts'
import { api } from '../../net/api.ts'
import { isTelegram } from '../../telegram/launch.ts'

/**
 * Whether this device can get web push, and if not why (the note the app
 * shows): Telegram's web view has no push (the bot messages stand in); iOS
 * and iPadOS have it only for an app added to the home screen.
 */
export type PushSupport = 'ok' | 'telegram' | 'ios' | 'unsupported'

export function pushSupport(): PushSupport {
  if (isTelegram()) return 'telegram'
  const capable =
    'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  const ios =
    /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
  const homeScreen = matchMedia('(display-mode: standalone)').matches
  if (ios && !homeScreen) return 'ios'
  return capable ? 'ok' : 'unsupported'
}

/** This browser's subscription, when it has one (no service worker yet: none). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration()
  return (await registration?.pushManager.getSubscription()) ?? null
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4)
  const bytes = atob(padded)
  const key = new Uint8Array(new ArrayBuffer(bytes.length))
  for (let index = 0; index < bytes.length; index++) key[index] = bytes.charCodeAt(index)
  return key
}

export class PushDeniedError extends Error {
  constructor() {
    super('notifications are blocked for this site')
    this.name = 'PushDeniedError'
  }
}

/**
 * Asks the browser (the permission prompt), subscribes with the server's key
 * and hands the subscription to the server.
 * @throws PushDeniedError when the person (or the browser) says no
 */
export async function turnPushOn(publicKey: string): Promise<void> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new PushDeniedError()
  const registration = await navigator.serviceWorker.ready
  const existing = await registration.pushManager.getSubscription()
  const subscription =
    existing ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: applicationServerKey(publicKey),
    }))
  try {
    // A new device needs the second look (the API client asks for it in place).
    await api.v2.post('/push/subscriptions', subscription.toJSON() as PushSubscriptionBody)
  } catch (error) {
    // Not on the server (the person declined the question, say): the switch must not say "on".
    if (!existing) await subscription.unsubscribe()
    throw error
  }
}

export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription()
  if (!subscription) return
  await api.v2.post('/push/subscriptions/delete', { endpoint: subscription.endpoint })
  await subscription.unsubscribe()
}
