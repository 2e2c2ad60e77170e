import type { Kysely } from 'kysely'
import type { TokenPair } from '../../../contract/auth.ts'
import type { TelegramUser } from '../../../contract/telegram.ts'
import type { DB } from '../../infra/db/schema.ts'
import { openStarterWallet } from '../wallets/starter-wallet.ts'
import { AuthError } from './errors.ts'
import * as repo from './repository.ts'
import type { AuthService, RequestContext } from './service.ts'
import { profileFromLaunchUser, verifyInitData } from './telegram-init-data.ts'

export interface TelegramSettings {
  /** Unset: Telegram sign-in is off (503). */
  botToken: string | undefined
  authMaxAge: number
}

/**
 * Signing in and up with the init data of a Telegram Mini App. The launch
 * user's id is the identity; the session comes from AuthService.startSession
 * like every other way in.
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
   *   USER_NOT_FOUND (sign up first), USER_BLOCKED
   */
  async signIn(context: RequestContext, initData: string): Promise<TokenPair> {
    const launchUser = this.verify(initData)
    const user = await repo.findUserByTelegramId(this.db, context.tenantId, String(launchUser.id))
    if (!user) throw new AuthError({ kind: 'USER_NOT_FOUND' })
    return this.db
      .transaction()
      .execute((trx) => this.auth.startSession(trx, context, user.id, 'telegram'))
  }

  /** @throws AuthError TELEGRAM_NOT_CONFIGURED, TELEGRAM_INIT_DATA_INVALID, TELEGRAM_USER_EXISTS */
  async signUp(context: RequestContext, initData: string): Promise<TokenPair> {
    const launchUser = this.verify(initData)
    return this.db.transaction().execute(async (trx) => {
      const userId = await repo.insertUserWithTelegram(trx, {
        tenantId: context.tenantId,
        telegramId: String(launchUser.id),
        profile: profileFromLaunchUser(launchUser),
      })
      if (!userId) throw new AuthError({ kind: 'TELEGRAM_USER_EXISTS' })
      await openStarterWallet(trx, { tenantId: context.tenantId, userId })
      return this.auth.startSession(trx, context, userId, 'telegram')
    })
  }

  private verify(initData: string): TelegramUser {
    const { botToken, authMaxAge } = this.settings
    if (!botToken) throw new AuthError({ kind: 'TELEGRAM_NOT_CONFIGURED' })
    const verdict = verifyInitData(initData, botToken, {
      maxAgeSeconds: authMaxAge,
      now: this.clock(),
    })
    if (!verdict.ok) {
      throw new AuthError({ kind: 'TELEGRAM_INIT_DATA_INVALID', reason: verdict.reason })
    }
    return verdict.user
  }
}
