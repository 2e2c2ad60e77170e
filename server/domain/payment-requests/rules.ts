/**
 * Payment requests, the pure part: how a stored request stands now, and the
 * links that share it. No IO here.
 */
import {
  type PaymentRequestStatus,
  REQUEST_START_PREFIX,
} from '../../../contract/payment-requests.ts'

/** An open request past its expiry reads EXPIRED (nothing stores it so: time does). */
export function requestStatus(
  stored: Exclude<PaymentRequestStatus, 'EXPIRED'>,
  expiresAt: Date | null,
  now: Date,
): PaymentRequestStatus {
  return stored === 'OPEN' && expiresAt !== null && expiresAt <= now ? 'EXPIRED' : stored
}

/** Where a request opens: the app's own page, and the Mini App's direct link when there is a bot. */
export function shareLinks(
  id: string,
  settings: { publicUrl: string; botUsername: string | undefined; miniAppName: string | undefined },
): { url: string; telegram_url: string | null } {
  const { botUsername, miniAppName } = settings
  return {
    url: `${settings.publicUrl}/pay/${id}`,
    // Telegram's start parameter allows [A-Za-z0-9_-], up to 512: a UUID with its prefix fits.
    telegram_url:
      botUsername && miniAppName
        ? `https://t.me/${botUsername}/${miniAppName}?startapp=${REQUEST_START_PREFIX}${id}`
        : null,
  }
}
