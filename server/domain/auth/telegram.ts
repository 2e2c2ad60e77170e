import type { Kysely, Transaction } from 'kysely'
import type { TokenPair } from '../../../contract/auth.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { RequestContext } from '../request-context.ts'
import { AuthError } from './errors.ts'
import * as repo from './repository.ts'
import type { AuthService } from './service.ts'
import {
  type InitDataVerdict,
  profileFromLaunchUser,
  verifyInitData,
} from './telegram-init-data.ts'

type LaunchData = Extract<InitDataVerdict, { ok: true }>

export interface TelegramSettings {
  /** Unset: Telegram sign-in is off (503). */
  botToken: string | undefined
  authMaxAge: number
}

/**
 * Signing in and up with the init data of a Telegram Mini App. The launch
 * user's id is the identity; the session comes from AuthService.startSession
 * like every other way in. Launch data is good for TELEGRAM_AUTH_MAX_AGE
 * from when Telegram signed it, and opens one session: the same data again
 * (a copy taken from the device, a log, a proxy) is a replay.
 */
export class TelegramAuthService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
    private readonly settings: TelegramSettings,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * @throws AuthError TELEGRAM_NOT_CONFIGURED, TELEGRAM_INIT_DATA_INVALID,
   *   TELEGRAM_INIT_DATA_USED, USER_NOT_FOUND (sign up first), USER_BLOCKED
   */
  async signIn(context: RequestContext, initData: string): Promise<TokenPair> {
    const launch = this.verify(initData)
    const user = await repo.findUserByTelegramId(this.db, context.tenantId, String(launch.user.id))
    // Not found spends nothing: the Mini App signs up with the same launch data next.
    if (!user) throw new AuthError({ kind: 'USER_NOT_FOUND' })
    return this.db.transaction().execute((trx) => this.open(trx, context, user.id, launch))
  }

  /**
   * @throws AuthError TELEGRAM_NOT_CONFIGURED, TELEGRAM_INIT_DATA_INVALID,
   *   TELEGRAM_INIT_DATA_USED, TELEGRAM_USER_EXISTS
   */
  async signUp(context: RequestContext, initData: string): Promise<TokenPair> {
    const launch = this.verify(initData)
    return this.db.transaction().execute(async (trx) => {
      const userId = await repo.insertUserWithTelegram(trx, {
        tenantId: context.tenantId,
        telegramId: String(launch.user.id),
        profile: profileFromLaunchUser(launch.user),
      })
      if (!userId) throw new AuthError({ kind: 'TELEGRAM_USER_EXISTS' })
      await this.auth.welcome(trx, { tenantId: context.tenantId, userId })
      return this.open(trx, context, userId, launch)
    })
  }

  /**
   * Spends the launch data and opens the session, in the caller's
   * transaction: a refusal after it (a blocked account) spends nothing.
   */
  private async open(
    trx: Transaction<DB>,
    context: RequestContext,
    userId: string,
    launch: LaunchData,
  ): Promise<TokenPair> {
    const now = this.clock()
    await repo.forgetExpiredInitData(trx, now)
    const expiresAt = new Date(launch.authDate.getTime() + this.settings.authMaxAge * 1000)
    if (!(await repo.spendInitData(trx, launch.hash, expiresAt))) {
      throw new AuthError({ kind: 'TELEGRAM_INIT_DATA_USED' })
    }
    return this.auth.startSession(trx, context, userId, 'telegram', launch.authDate)
  }

  private verify(initData: string): LaunchData {
    const { botToken, authMaxAge } = this.settings
    if (!botToken) throw new AuthError({ kind: 'TELEGRAM_NOT_CONFIGURED' })
    const verdict = verifyInitData(initData, botToken, {
      maxAgeSeconds: authMaxAge,
      now: this.clock(),
    })
    if (!verdict.ok) {
      throw new AuthError({ kind: 'TELEGRAM_INIT_DATA_INVALID', reason: verdict.reason })
    }
    return verdict
  }
}
