import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  ActivateCardBody,
  Card,
  CardDetail,
  CardList,
  CardListQuery,
  CardOtp,
  CardRevealList,
  CreateBalanceCardBody,
  CreateCardBody,
  SecretKeyBody,
  SecretKeyReply,
  SecretPublicKey,
  UpdateCardBody,
  UpdateCardLimitsBody,
} from '../../../contract/cards.ts'
import { PageQuery } from '../../../contract/pagination.ts'
import { Problem } from '../../../contract/problem.ts'
import type { ProblemCode } from '../../../contract/problem-codes.ts'
import type { Config } from '../../config.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { rateLimited } from '../../infra/rate-limit.ts'
import { idempotencyKey } from '../idempotency.ts'
import { belongsTo } from '../tenants/product-gate.ts'
import { CardError } from './errors.ts'
import { ACTIVATION_TRIES, ACTIVATION_WINDOW_MS, type CardAction } from './rules.ts'

/** The one switch from card failures to HTTP answers. */
export const toProblem = (error: unknown) => {
  if (!(error instanceof CardError)) return undefined
  const failure = error.failure
  const unprocessable = (code: ProblemCode, fields: { field: string; message: string }[]) =>
    new ProblemError(422, code, fields.map((fault) => fault.message).join(' '), {
      title: 'Unprocessable Content',
      errors: fields,
    })
  switch (failure.kind) {
    // Another user's card answers exactly like one that does not exist.
    case 'CARD_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such card.')
    case 'CARD_STATUS_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        `The card is ${failure.status}: this is not possible in that status.`,
        { extensions: { card_status: failure.status } },
      )
    case 'WALLET_NOT_FOUND':
    case 'PROGRAM_NOT_FOUND':
    case 'PROGRAM_ARCHIVED':
    case 'PROGRAM_NOT_PREPAID':
    case 'FORM_FACTOR_UNAVAILABLE':
    case 'FIAT_ACCOUNT_NOT_FOUND':
    case 'FIAT_ACCOUNT_UNAVAILABLE':
    case 'DELIVERY_ADDRESS_REQUIRED':
    case 'DELIVERY_ADDRESS_NOT_ALLOWED':
    case 'INVALID_DELIVERY_ADDRESS':
    case 'INSUFFICIENT_FUNDS':
    case 'ACTIVATION_CODE_INVALID':
      return unprocessable(failure.kind, [failure.fault])
    case 'ACTIVATION_RATE_LIMITED':
      return rateLimited(
        failure.retryAfterSeconds,
        'Too many wrong security codes for this card. Try again later.',
      )
    case 'CARD_NOT_DELIVERED':
      return new ProblemError(
        409,
        failure.kind,
        `The card's delivery is ${failure.delivery ?? 'unknown'}: it is activated once delivered.`,
      )
    case 'INVALID_LIMITS':
    case 'INVALID_CONTROLS':
      return unprocessable(failure.kind, failure.faults)
    case 'IDEMPOTENCY_CONFLICT':
      return new ProblemError(
        409,
        failure.kind,
        failure.of === 'create'
          ? 'This idempotency key was used for a different card request.'
          : 'This request_id renamed the card to another nick_name already.',
      )
    case 'SECRET_KEY_INVALID':
      return new ProblemError(
        422,
        failure.kind,
        'The encrypted_key does not decrypt to {key, timestamp} with the server’s key.',
        { errors: [{ field: '/body/encrypted_key', message: 'Not a valid encrypted key.' }] },
      )
    case 'SECRET_KEY_STALE':
      return new ProblemError(
        422,
        failure.kind,
        'The encrypted_key’s timestamp is more than 60 seconds from the server’s clock.',
        { errors: [{ field: '/body/encrypted_key', message: 'The key is too old.' }] },
      )
    case 'SECRET_KEY_REPLAYED':
      return new ProblemError(409, failure.kind, 'This encrypted_key was used before.')
    default:
      return assertNever(failure)
  }
}

/** Secret reveals and one-time codes together, per user and minute. */
export const REVEALS_PER_MINUTE = 10

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
})

export const CardParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
// 403: an API key's role (API_KEY_ROLE_FORBIDDEN, SESSION_REQUIRED) or KYC_REQUIRED on issuing.
export const problems = {
  401: Problem,
  403: Problem,
  404: Problem,
  409: Problem,
  422: Problem,
  423: Problem,
}
const tags = ['issuing']

/** What both ways of issuing a card take alike: the card itself and the idempotency key. */
function newCard(
  body: CreateCardBody | CreateBalanceCardBody,
  headers: { 'idempotency-key'?: string },
) {
  return {
    formFactor: body.form_factor,
    nickName: body.nick_name,
    limits: body.limits,
    deliveryAddress: body.delivery_address,
    requestKey: idempotencyKey({ requestId: body.request_id, header: headers['idempotency-key'] }),
  }
}

/** 201 with the card; a replayed creation says so. */
function issued(reply: FastifyReply, result: { card: Card; replayed: boolean }) {
  if (result.replayed) reply.header('idempotent-replayed', 'true')
  return reply.code(201).send(result.card)
}

/** Card issuing (v1): cards, their actions, secrets, one-time codes and reveal log. Protected. */
export default async function cardRoutes(app: FastifyInstance, _opts: { config: Config }) {
  belongsTo(app, 'cards')
  const { cards: service, cardCrypto: crypto } = app.services
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const translated = <T>(work: Promise<T>) => translateErrors(work, toProblem)

  api.get(
    '/issuing/config/secret-key',
    {
      schema: {
        tags,
        summary: 'The RSA public key card secrets are requested with',
        description:
          'The client encrypts its fresh AES key with it (RSA-OAEP, SHA-256) for ' +
          '`POST /issuing/cards/{id}/sensitive/secretkey`. The tenant config will carry it too.',
        response: { 200: SecretPublicKey, 401: Problem },
      },
    },
    () => ({ algorithm: 'RSA-OAEP-256' as const, public_key_pem: crypto.publicKeyPem }),
  )

  api.post(
    '/issuing/cards/create',
    {
      schema: {
        tags,
        summary: 'Issue a stand-alone card, with a new prepaid fiat account of its own',
        description:
          'The program must be the tenant’s, ACTIVE, prepaid and offer the form factor ' +
          '(422 PROGRAM_NOT_FOUND, PROGRAM_ARCHIVED, PROGRAM_NOT_PREPAID, FORM_FACTOR_UNAVAILABLE); ' +
          'another user’s wallet answers 422 WALLET_NOT_FOUND. Limits default to the issuer’s. ' +
          'PHYSICAL needs delivery_address (422 DELIVERY_ADDRESS_REQUIRED), VIRTUAL refuses it ' +
          '(422 DELIVERY_ADDRESS_NOT_ALLOWED); a PHYSICAL card starts INACTIVE, delivery ORDERED. ' +
          'The program’s issue fee is paid from the wallet (422 INSUFFICIENT_FUNDS, no card). ' +
          'Idempotent under `request_id`, else the Idempotency-Key header: the same body again ' +
          'answers the first 201 with `Idempotent-Replayed: true`; another body, 409 ' +
          'IDEMPOTENCY_CONFLICT.',
        headers: IdempotencyHeaders,
        body: CreateCardBody,
        response: { 201: Card, ...problems },
      },
    },
    async (request, reply) => {
      const created = service.createStandAlone(request.auth, {
        walletId: request.body.wallet_uuid,
        programId: request.body.program_id,
        ...newCard(request.body, request.headers),
      })
      return issued(reply, await translated(created))
    },
  )

  api.post(
    '/issuing/cards/balance',
    {
      schema: {
        tags,
        summary: 'Issue a card spending from one of the caller’s fiat accounts',
        description:
          'The account must be ACTIVE and not a stand-alone card’s own (422 ' +
          'FIAT_ACCOUNT_UNAVAILABLE); another user’s answers 422 FIAT_ACCOUNT_NOT_FOUND. ' +
          'The program’s issue fee is paid from the account (422 INSUFFICIENT_FUNDS, no card). ' +
          'Delivery address and idempotency as for /issuing/cards/create.',
        headers: IdempotencyHeaders,
        body: CreateBalanceCardBody,
        response: { 201: Card, ...problems },
      },
    },
    async (request, reply) => {
      const created = service.createOnAccount(request.auth, {
        fiatAccountId: request.body.fiat_account_id,
        ...newCard(request.body, request.headers),
      })
      return issued(reply, await translated(created))
    },
  )

  api.get(
    '/issuing/cards',
    {
      schema: {
        tags,
        summary: 'The caller’s cards, oldest first, by wallet, sub-account type or fiat account',
        description: 'Only the last four digits of a number are ever listed.',
        querystring: CardListQuery,
        response: { 200: CardList, 401: Problem, 422: Problem, 423: Problem },
      },
    },
    (request) => service.list(request.auth, request.query),
  )

  api.get(
    '/issuing/cards/:id',
    {
      schema: {
        tags,
        summary: 'One card, with the full fiat account it spends from',
        description: 'The account’s `type` is the card’s own account type.',
        params: CardParams,
        response: { 200: CardDetail, ...problems },
      },
    },
    (request) => translated(service.detail(request.auth, request.params.id)),
  )

  const action = (path: string, method: 'PATCH' | 'DELETE', act: CardAction, summary: string) =>
    api.route({
      method,
      url: path,
      schema: {
        tags,
        summary,
        description:
          'A transition the card’s status forbids answers 409 CARD_STATUS_CONFLICT with `card_status`.',
        params: CardParams,
        response: { 200: Card, ...problems },
      },
      handler: (request) => translated(service.act(request.auth, request.params.id, act)),
    })
  action('/issuing/cards/:id/freeze', 'PATCH', 'freeze', 'Freeze an ACTIVE card')
  action('/issuing/cards/:id/unfreeze', 'PATCH', 'unfreeze', 'Unfreeze a FROZEN card')
  action(
    '/issuing/cards/:id',
    'DELETE',
    'close',
    'Close a card; a stand-alone card’s remaining balance returns to its wallet',
  )

  api.patch(
    '/issuing/cards/:id/activate',
    {
      schema: {
        tags,
        summary: 'Activate a delivered physical card with the security code printed on it',
        description:
          'INACTIVE → ACTIVE when `cvv` is the card’s printed 3-digit security code. A card not ' +
          'INACTIVE (or not physical): 409 CARD_STATUS_CONFLICT; delivery not DELIVERED: 409 ' +
          'CARD_NOT_DELIVERED; another code: 422 ACTIVATION_CODE_INVALID on /body/cvv. After ' +
          `${ACTIVATION_TRIES} wrong codes within ${ACTIVATION_WINDOW_MS / 60_000} minutes, ` +
          '429 RATE_LIMITED with Retry-After until that hour is over (counted in the database). ' +
          'A signed-in session only: an API key gets 403 SESSION_REQUIRED.',
        params: CardParams,
        body: ActivateCardBody,
        response: { 200: Card, ...problems, 429: Problem },
      },
    },
    (request) => translated(service.activate(request.auth, request.params.id, request.body.cvv)),
  )

  api.patch(
    '/issuing/cards/:id/limits',
    {
      schema: {
        tags,
        summary: 'Set the card’s spending limits',
        description:
          'Positive amounts in the account’s currency, per_transaction ≤ daily ≤ monthly ' +
          '(422 INVALID_LIMITS naming each field). A closed card answers 409.',
        params: CardParams,
        body: UpdateCardLimitsBody,
        response: { 200: Card, ...problems },
      },
    },
    (request) => translated(service.setLimits(request.auth, request.params.id, request.body)),
  )

  api.patch(
    '/issuing/cards/:id/update',
    {
      schema: {
        tags,
        summary: 'Rename the card, once per request_id',
        description:
          'The same request_id and nick_name again answer the card as it is, with ' +
          '`Idempotent-Replayed: true`; another nick_name under it, 409 IDEMPOTENCY_CONFLICT.',
        params: CardParams,
        body: UpdateCardBody,
        response: { 200: Card, ...problems },
      },
    },
    async (request, reply) => {
      const { card, replayed } = await translated(
        service.rename(request.auth, request.params.id, {
          nickName: request.body.nick_name,
          requestId: request.body.request_id,
        }),
      )
      if (replayed) reply.header('idempotent-replayed', 'true')
      return card
    },
  )

  api.post(
    '/issuing/cards/:id/sensitive/secretkey',
    {
      schema: {
        tags,
        summary: 'The card’s number, expiry and CVV, sealed under the caller’s own key',
        description:
          'See contract/cards.ts SecretKeyBody for the exact formats. 422 SECRET_KEY_INVALID, ' +
          '422 SECRET_KEY_STALE (timestamp more than 60 s off), 409 SECRET_KEY_REPLAYED; a ' +
          'closed, cancelled or not yet activated (INACTIVE) card answers 409 CARD_STATUS_CONFLICT. ' +
          `Every reveal is logged. ${REVEALS_PER_MINUTE} reveals and codes per user and minute, ` +
          'then 429 RATE_LIMITED. A signed-in session only: an API key gets 403 SESSION_REQUIRED.',
        params: CardParams,
        body: SecretKeyBody,
        response: { 200: SecretKeyReply, ...problems, 429: Problem },
      },
    },
    (request) =>
      translated(
        service.revealSecrets(request.auth, request.params.id, request.body.encrypted_key),
      ),
  )

  api.get(
    '/vcards/cards/:id/sensitive/otp',
    {
      schema: {
        tags,
        summary: 'A one-time code for the card, valid five minutes, shown once',
        description:
          'Stored only as a keyed hash; logged in the card’s reveal log. Counts with the ' +
          'reveals (429 RATE_LIMITED). A signed-in session only: an API key gets 403 SESSION_REQUIRED.',
        params: CardParams,
        response: { 200: CardOtp, ...problems, 429: Problem },
      },
    },
    (request) => translated(service.issueOtp(request.auth, request.params.id)),
  )

  api.get(
    '/issuing/cards/:id/reveals',
    {
      schema: {
        tags,
        summary: 'The card’s reveal log: every secret reveal and one-time code, newest first',
        params: CardParams,
        querystring: PageQuery,
        response: { 200: CardRevealList, ...problems },
      },
    },
    (request) => translated(service.reveals(request.auth, request.params.id, request.query)),
  )
}
