import type { StepUpMethod } from '../../contract/security.ts'

/**
 * The second look (issue 21): a sensitive call answered 403 STEP_UP_REQUIRED
 * is not a failure of the session (that would be a 401), only a request to
 * show the person is still there. The app shell registers one handler that
 * asks in place (a dialog) and resolves true once the session holds a fresh
 * proof; the API client then makes the call again, once.
 */
export type StepUpHandler = (methods: StepUpMethod[]) => Promise<boolean>

let handler: StepUpHandler | undefined

/** Registers the app's handler; returns the function that removes it. */
export function setStepUpHandler(next: StepUpHandler): () => void {
  handler = next
  return () => {
    if (handler === next) handler = undefined
  }
}

/** Asks for a proof; false when nobody can ask (no handler) or the person declined. */
export function askForStepUp(methods: StepUpMethod[]): Promise<boolean> {
  return handler ? handler(methods) : Promise.resolve(false)
}

/** The shape of an ApiError this module reads (duck-typed: api.ts imports this file). */
interface StepUpAnswer {
  code?: string
  problem?: { methods?: string[] }
}

/**
 * Runs `work`; when it fails with 403 STEP_UP_REQUIRED (as `asApiError` reads
 * the failure), asks for the proof and, once given, runs it again — once.
 * Any other failure, or a declined question, is thrown as it came.
 */
export async function withStepUp<T>(
  work: () => Promise<T>,
  asApiError: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    const answer = asApiError(error) as StepUpAnswer | undefined
    if (answer?.code !== 'STEP_UP_REQUIRED') throw error
    const methods = (answer.problem?.methods ?? []) as StepUpMethod[]
    if (!(await askForStepUp(methods))) throw error
    return work()
  }
}
