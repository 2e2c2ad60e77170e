import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import {
  ApiKey,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyWithSecret,
  CreateApiKeyBody,
  RotateApiKeyBody,
  UpdateApiKeyBody,
  VendorList,
} from '../../../contract/developer.ts'
import { Problem } from '../../../contract/problem.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { wholePage } from '../page.ts'
import { DeveloperError } from './errors.ts'
import { developerProblems, developerSchema, sendCreated } from './session-routes.ts'

/** The one switch from key-management failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof DeveloperError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'API_KEY_NOT_FOUND':
      return new ProblemError(404, 'API_KEY_NOT_FOUND', 'No such API key.')
    case 'API_KEY_LIMIT':
      return new ProblemError(
        409,
        'API_KEY_LIMIT',
        `At most ${failure.limit} API keys can be enabled at once: disable one you no longer use first.`,
      )
    case 'ALLOWED_IPS_INVALID':
      return new ProblemError(
        422,
        'VALIDATION_FAILED',
        failure.errors.map((e) => `${e.field} ${e.message}`).join('; '),
        { title: 'Unprocessable Content', errors: failure.errors },
      )
    default:
      return assertNever(failure)
  }
}

const problems = developerProblems
const keys = developerSchema

/** v1 (raw token): the developer's API keys and the deployment's vendors (docs/product.md §7). */
export default async function developerRoutes(app: FastifyInstance) {
  const service = app.services.developer
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/developer/access/list',
    {
      schema: {
        ...keys,
        summary: 'The caller’s API keys, newest first',
        description: 'Never a secret: `prefix` tells keys apart. A signed-in session only.',
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyList, ...problems },
      },
    },
    (request) => service.list(request.auth, request.query),
  )

  api.post(
    '/developer/access/create',
    {
      schema: {
        ...keys,
        summary: 'Create an API key',
        description:
          'Answers the key with its `secret` (`fpk_<public id>_<secret>`), shown this once: ' +
          'only its SHA-256 is kept. Send it as `X-API-Key` on /api/v1 or /api/v2 with the ' +
          'tenant header. `allowed_ips`: addresses or CIDR networks (422 names a bad entry). ' +
          '409 API_KEY_LIMIT when the person already has 25 enabled keys.',
        body: CreateApiKeyBody,
        response: { 201: ApiKeyWithSecret, 409: Problem, ...problems },
      },
    },
    (request, reply) => sendCreated(reply, service.create(request.auth, request.body), toProblem),
  )

  api.post(
    '/developer/access/rotate',
    {
      schema: {
        ...keys,
        summary: 'Give an API key a new secret',
        description:
          'Answers the new secret, shown this once. The old secret keeps working for ' +
          '`overlap_seconds` (default API_KEY_ROTATION_OVERLAP_SECONDS, 0: it stops at once), ' +
          'shown as `previous_secret_expires_at`.',
        body: RotateApiKeyBody,
        response: { 200: ApiKeyWithSecret, 404: Problem, ...problems },
      },
    },
    (request) =>
      translateErrors(
        service.rotate(request.auth, request.body.id, request.body.overlap_seconds),
        toProblem,
      ),
  )

  api.post(
    '/developer/access/update',
    {
      schema: {
        ...keys,
        summary: 'Rename, re-role, enable or disable an API key, or set its allowed IPs',
        description:
          'Only the fields sent change. A disabled key answers 401 API_KEY_INVALID. ' +
          'Enabling a key is 409 API_KEY_LIMIT when 25 are already enabled.',
        body: UpdateApiKeyBody,
        response: { 200: ApiKey, 404: Problem, 409: Problem, ...problems },
      },
    },
    (request) => translateErrors(service.update(request.auth, request.body), toProblem),
  )

  api.get(
    '/developer/vendors/list',
    {
      schema: {
        tags: ['developer'],
        summary: 'The providers behind this deployment, with their health',
        description:
          'Chain, card processor, banking, KYC, messaging and rates: `mode` sandbox or live; ' +
          '`health` from a real call to each (up; degraded when slower than 1 s; down when it ' +
          'fails or takes 5 s), cached 30 s.',
        response: { 200: VendorList, 401: Problem, 403: Problem, 423: Problem },
      },
    },
    async () => wholePage(await app.vendors.list()),
  )
}
