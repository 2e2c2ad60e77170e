import { forgetPersistedQueries } from '../storage/query-persister.ts'
import { openTokenVault, type TokenVault } from '../storage/token-vault.ts'
import { telegramLaunch } from '../telegram/launch.ts'
import { netConfig } from './config.ts'

const vault = openTokenVault()

/**
 * Which Telegram user the stored session belongs to. Telegram's web view
 * storage is shared by every account of the Telegram app (multi-account on
 * Android and iOS, Desktop), so tokens that outlive a launch may be another
 * person's: in the Mini App a stored session counts only for the launch user
 * it was made for. Kept beside the tokens, for as long as they are.
 */
export const SESSION_USER_KEY = 'telegram/session-user'

export interface LaunchSessionDeps {
  vault: TokenVault
  /** Where the session's Telegram user id is kept; undefined where there is no storage. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined
  /** Forgets the query cache on disk (src/storage/query-persister.ts). */
  forgetQueries: () => Promise<void>
}

export interface LaunchSessions {
  /**
   * Whether a session of `userId` is stored. Tokens of anyone else — another
   * Telegram user, or a session whose user is not known — are wiped first,
   * with the query cache on disk.
   */
  check(userId: string | undefined): Promise<boolean>
  /**
   * Before the launch user signs in: true when their stored session can be
   * used as it is; otherwise whatever is stored is wiped (as `check`) and the
   * session about to be issued is marked as `userId`'s — before the tokens
   * arrive, so no check in between can take them for someone else's.
   */
  claim(userId: string | undefined): Promise<boolean>
  /** Forgets whose session it was (sign-out). */
  forget(): void
}

export function launchSessions(deps: LaunchSessionDeps): LaunchSessions {
  // One wipe at a time: a check that started it and one that joins it both
  // resume only once the tokens and the cache are gone.
  let wiping: Promise<void> | undefined

  const stored = () => {
    try {
      return deps.storage?.getItem(SESSION_USER_KEY) ?? undefined
    } catch {
      return undefined
    }
  }
  const store = (userId: string | undefined) => {
    try {
      if (userId === undefined) deps.storage?.removeItem(SESSION_USER_KEY)
      else deps.storage?.setItem(SESSION_USER_KEY, userId)
    } catch {
      // Nothing kept: the next launch finds no owner and signs in afresh, which is safe.
    }
  }
  const wipe = () => {
    wiping ??= (async () => {
      store(undefined)
      await deps.vault.clear()
      await deps.forgetQueries()
    })().finally(() => {
      wiping = undefined
    })
    return wiping
  }

  const check = async (userId: string | undefined) => {
    if (userId === undefined || stored() !== userId) {
      await wipe()
      return false
    }
    await wiping
    return (await deps.vault.read()) !== undefined
  }

  return {
    check,
    async claim(userId) {
      if (await check(userId)) return true
      store(userId)
      return false
    },
    forget: () => store(undefined),
  }
}

function localStorageOrUndefined(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    return undefined
  }
}

const sessions = launchSessions({
  vault,
  storage: localStorageOrUndefined(),
  forgetQueries: forgetPersistedQueries,
})

/**
 * Whether tokens are stored; says nothing about whether they are still valid.
 * In the Mini App only the launch user's session counts, and anyone else's is
 * wiped on the way (see `SESSION_USER_KEY`).
 */
export async function hasSession(): Promise<boolean> {
  const launch = telegramLaunch()
  if (launch) return sessions.check(launch.userId)
  return (await vault.read()) !== undefined
}

/**
 * The Mini App, before it signs in with the launch init data: true when the
 * launch user's own session is stored and can be used (offline start);
 * otherwise nothing of another person's is left, and the session about to be
 * issued is marked as the launch user's.
 */
export function claimTelegramSession(userId: string | undefined): Promise<boolean> {
  return sessions.claim(userId)
}

/**
 * Ends the session on the server when it can (best effort: the refresh token
 * may already be dead), then forgets the tokens.
 */
export async function signOut(): Promise<void> {
  const tokens = await vault.read()
  await vault.clear()
  sessions.forget()
  if (!tokens?.refresh_token) return
  await fetch(`${netConfig.v2Base}/auth/sign-out`, {
    method: 'POST',
    body: JSON.stringify({ refresh_token: tokens.refresh_token }),
  }).catch(() => undefined)
}
