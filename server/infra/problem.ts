import { STATUS_CODES } from 'node:http'
import type { Problem } from '../../contract/problem.ts'
import type { ProblemCode } from '../../contract/problem-codes.ts'

/** RFC 9457 extension members the contract declares (retry_after, blocked_until, limit, …). */
export type ProblemExtensions = Pick<
  Problem,
  | 'retry_after'
  | 'blocked_until'
  | 'limit'
  | 'attempts_left'
  | 'order_status'
  | 'card_status'
  | 'statement_status'
  | 'act'
  | 'lift_after'
  | 'required_role'
  | 'kyc_status'
  | 'methods'
>

/**
 * An error that already knows its HTTP answer. Domain errors are mapped to it
 * in each area's routes.ts; the error handler renders it as RFC 9457.
 */
export class ProblemError extends Error {
  readonly status: number
  readonly code: ProblemCode
  readonly title: string
  readonly errors: Problem['errors']
  readonly headers: Record<string, string>
  readonly extensions: ProblemExtensions

  constructor(
    status: number,
    code: ProblemCode,
    detail: string,
    options: {
      title?: string
      errors?: Problem['errors']
      headers?: Record<string, string>
      extensions?: ProblemExtensions
    } = {},
  ) {
    super(detail)
    this.name = 'ProblemError'
    this.status = status
    this.code = code
    this.title = options.title ?? STATUS_CODES[status] ?? 'Error'
    this.errors = options.errors
    this.headers = options.headers ?? {}
    this.extensions = options.extensions ?? {}
  }

  toProblem(): Problem {
    return {
      type: problemType(this.code),
      title: this.title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors && { errors: this.errors }),
      ...this.extensions,
    }
  }
}

/** A stable, resolvable-looking URI per code; docs/api.md lists them. */
export const problemType = (code: ProblemCode) =>
  `https://docs.finplatform.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`

/**
 * Runs a use case and turns the domain errors it documents into problems;
 * anything `translate` does not know is rethrown untouched (a bug: 500).
 */
export async function translateErrors<T>(
  work: Promise<T>,
  translate: (error: unknown) => ProblemError | undefined,
): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw translate(error) ?? error
  }
}

/**
 * The default of every failure→problem switch: a failure kind the switch does
 * not answer stops the build (its type is not `never` here), not a request.
 */
export function assertNever(failure: never): never {
  throw new Error(`No answer for ${JSON.stringify(failure)}`)
}
