import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import {
  CreateScheduleBody,
  Schedule,
  ScheduleList,
  ScheduleListQuery,
  UpdateScheduleBody,
} from '../../../contract/schedules.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { RatesUnavailableError } from '../../providers/rates/rates.ts'
import { translateWalletError } from '../wallets/routes.ts'
import { ScheduleError } from './errors.ts'

/** The one switch from schedule failures to HTTP answers. */
const toProblem = (error: unknown) => {
  const walletProblem = translateWalletError(error)
  if (walletProblem) return walletProblem
  if (error instanceof RatesUnavailableError) {
    return new ProblemError(
      502,
      'RATES_UNAVAILABLE',
      'Exchange rates are unavailable: try again soon.',
    )
  }
  if (!(error instanceof ScheduleError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'SCHEDULE_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'No such schedule of yours.')
    case 'SCHEDULE_INVALID':
      return new ProblemError(
        422,
        failure.kind,
        failure.errors.map((each) => `${each.field} ${each.message}`).join('; '),
        { title: 'Unprocessable Content', errors: failure.errors },
      )
    default:
      return assertNever(failure)
  }
}

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
const problems = { 401: Problem, 404: Problem, 422: Problem, 423: Problem }
const tags = ['schedules']

/**
 * Payments that repeat (issue 32). Setting up or resuming one that moves money
 * out (a transfer or a withdrawal) needs the second look (route-policy.ts);
 * an exchange's does not. Each occurrence runs once, as an ordinary transfer
 * or order, on the job runner (run-schedule.ts).
 */
export default async function scheduleRoutes(app: FastifyInstance) {
  const service = app.services.schedules
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/schedules',
    {
      schema: {
        tags,
        summary: 'Repeat a transfer, an exchange or a withdrawal',
        description:
          '`rrule`: one RFC 5545 RRULE, DAILY or slower, without DTSTART, TZID, UNTIL or a time ' +
          'of day — every run happens at `starts_at`’s wall-clock time in `time_zone` (on the ' +
          'day clocks skip that time, an hour later; on the day they repeat it, the first ' +
          'time). An exchange takes a firm quote at each run and is skipped, with a ' +
          'notification, when its rate fell more than `max_slippage_bps` below the ' +
          '`reference_rate` priced now. A run short of funds fails with a notification; the ' +
          'schedule goes on. 422 SCHEDULE_INVALID names each field at fault.',
        body: CreateScheduleBody,
        response: { 201: Schedule, 403: Problem, 502: Problem, ...problems },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await translateErrors(service.create(request.auth, request.body), toProblem)),
  )

  api.get(
    '/schedules',
    {
      schema: {
        tags,
        summary: 'The caller’s schedules, newest first, each with its next five runs',
        querystring: ScheduleListQuery,
        response: { 200: ScheduleList, ...problems },
      },
    },
    (request) => service.list(request.auth, request.query),
  )

  api.get(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'One schedule: its next five runs and its latest runs',
        params: IdParams,
        response: { 200: Schedule, ...problems },
      },
    },
    (request) => translateErrors(service.get(request.auth, request.params.id), toProblem),
  )

  api.patch(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'Pause, resume, or skip the next run',
        description:
          '`paused: true` stops the runs; `paused: false` resumes from the first occurrence ' +
          'after now; `skip_next: true` records the next run as SKIPPED (SKIPPED_BY_YOU).',
        params: IdParams,
        body: UpdateScheduleBody,
        response: { 200: Schedule, 403: Problem, ...problems },
      },
    },
    (request) =>
      translateErrors(service.update(request.auth, request.params.id, request.body), toProblem),
  )

  api.delete(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'Stop a schedule for good',
        params: IdParams,
        response: { 204: { type: 'null' }, ...problems },
      },
    },
    async (request, reply) => {
      await translateErrors(service.delete(request.auth, request.params.id), toProblem)
      return reply.code(204).send()
    },
  )
}
