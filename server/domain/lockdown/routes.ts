import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import {
  Lockdown,
  LockdownDone,
  LockdownLinkBody,
  StartLockdownBody,
  TelegramCallbackAnswer,
  TelegramCallbackBody,
} from '../../../contract/lockdown.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { SandboxBot } from '../../providers/messaging/telegram-bot.ts'
import { LockdownError } from './errors.ts'

/** The one switch from lockdown failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof LockdownError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'LOCKDOWN_NOT_ACTIVE':
      return new ProblemError(409, failure.kind, 'Your account is not locked down.')
    case 'LOCKDOWN_TOO_EARLY':
      return new ProblemError(
        409,
        failure.kind,
        `A lockdown can be lifted 10 minutes after it began: try again after ${failure.liftAfter.toISOString()}.`,
        { extensions: { lift_after: failure.liftAfter.toISOString() } },
      )
    // One answer for every reason: a guesser learns nothing about whose token it was.
    case 'LOCKDOWN_LINK_INVALID':
      return new ProblemError(
        422,
        failure.kind,
        'This link has expired or was used already. Open the app and lock your account from Sign-in and security.',
      )
    default:
      return assertNever(failure)
  }
}

const tags = ['security']

/** "That wasn't me" (v2, issue 30): the person's lockdown, and one tap on an alert. */
export default async function lockdownRoutes(app: FastifyInstance) {
  const { lockdown } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const translated = <T>(work: Promise<T>) => translateErrors(work, toProblem)
  const problems = { 401: Problem, 403: Problem, 409: Problem, 423: Problem }

  api.get(
    '/user/lockdown',
    {
      schema: {
        tags,
        summary: 'Whether the account is locked down, since when, and what that refuses',
        response: { 200: Lockdown, 401: Problem, 423: Problem },
      },
    },
    (request) => lockdown.status(request.auth),
  )

  api.post(
    '/user/lockdown',
    {
      schema: {
        tags,
        summary: 'Lock the account down at once: cards frozen, other sessions ended',
        description:
          'In one transaction: every ACTIVE card is FROZEN (`frozen_by_lockdown`), every other ' +
          'session ends, and `security.lockdown` is told. Until it is lifted, withdrawals, ' +
          'payouts, new API keys, new webhook endpoints and contact changes answer 409 ' +
          'LOCKDOWN_ACTIVE. Already locked down: answers the lockdown as it is (other ' +
          'sessions are ended again). Never needs the second look.',
        body: StartLockdownBody,
        response: { 200: Lockdown, ...problems },
      },
    },
    (request) => lockdown.start(request.auth, request.body?.reason),
  )

  api.delete(
    '/user/lockdown',
    {
      schema: {
        tags,
        summary: 'Lift the lockdown (the cards it froze stay frozen)',
        description:
          'Needs the second look, and 10 minutes since the lockdown began (409 ' +
          'LOCKDOWN_TOO_EARLY with `lift_after`); not locked down: 409 LOCKDOWN_NOT_ACTIVE. ' +
          'Each frozen card is unfrozen on its own, by the person.',
        response: { 200: Lockdown, ...problems },
      },
    },
    (request) => translated(lockdown.lift(request.auth)),
  )

  api.post(
    '/lockdown/link',
    {
      schema: {
        tags,
        summary: 'One tap on an alert: lock the account its token names',
        description:
          'The token of a security e-mail’s link or a push notification’s “That wasn’t me” ' +
          'button: signed, naming its person, good once for 24 hours. Locks that person down ' +
          'as POST /user/lockdown does, ending every session. A token that is not ours, was ' +
          'altered, has expired or was used answers 422 LOCKDOWN_LINK_INVALID and locks nobody.',
        body: LockdownLinkBody,
        response: { 200: LockdownDone, 422: Problem, 429: Problem },
      },
    },
    async (request) => {
      const { message } = await translated(
        lockdown.tap(request.body.token, { channels: ['push', 'email'] }),
      )
      return { locked: true as const, message }
    },
  )
}

/** The words a button that no longer works answers with, in both languages. */
const STALE_BUTTON =
  'This button no longer works. Open the app to lock your account. / ' +
  'Кнопка больше не работает. Откройте приложение, чтобы заблокировать аккаунт.'

/**
 * /api/sandbox/telegram/callback: Telegram's callback query to the bot, as
 * the sandbox plays it. The bot answers the tap (answerCallbackQuery's text)
 * and, when it locked the account, says so in the chat too.
 */
export async function sandboxTelegramCallbackRoutes(app: FastifyInstance) {
  const { lockdown } = app.services
  const bot = new SandboxBot(app.db, { delayMs: 0 })
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/telegram/callback',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate a tap on the bot’s inline “That wasn’t me” button',
        description:
          '`callback_data` is the button’s one-time token; it locks its person down only from ' +
          'their own chat (`chat_id`), once, within 24 hours. A forged, altered, replayed or ' +
          'misdirected one answers `locked: false` and locks nobody.',
        body: TelegramCallbackBody,
        response: { 200: TelegramCallbackAnswer, 422: Problem },
      },
    },
    async (request) => {
      const { chat_id, callback_data } = request.body
      try {
        const done = await lockdown.tap(callback_data, {
          channels: ['telegram'],
          chatId: chat_id,
        })
        await bot.reply({ tenantId: done.tenantId, chatId: chat_id, text: done.message })
        return { locked: true, text: done.message }
      } catch (error) {
        if (!(error instanceof LockdownError)) throw error
        return { locked: false, text: STALE_BUTTON }
      }
    },
  )
}
