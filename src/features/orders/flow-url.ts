/**
 * The money screens keep their step in the URL, so browser and phone "back"
 * walk the flow (review → form) and a reload keeps a result: `?step=review`
 * while reviewing, `?order=<id>` once placed (`?transfer=<id>` for a payment
 * to a person). These are the flow's own; every other parameter is what the
 * screen was opened with.
 */
const FLOW_PARAMS = ['step', 'order', 'transfer'] as const

/** The search without the flow's own parameters: a form is the same form across its steps. */
export function formKey(search: string): string {
  const params = new URLSearchParams(search)
  for (const name of FLOW_PARAMS) params.delete(name)
  return params.toString()
}

/** `path?search` with some parameters set or (undefined) removed. */
export function withParams(
  path: string,
  search: string,
  changes: Partial<Record<(typeof FLOW_PARAMS)[number], string | undefined>>,
): string {
  const params = new URLSearchParams(search)
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) params.delete(name)
    else params.set(name, value)
  }
  const text = params.toString()
  return text ? `${path}?${text}` : path
}

/**
 * Marks the history entry the review step pushed. Back from the review is
 * then a real step back (no dead entry left), and a placed order's result
 * replaces the form's entry rather than stacking on the review: back from
 * the result leaves the flow. A location without this state (a memory
 * location) replaces entries instead.
 */
const REVIEW_MARK = 'finplatform.orderReview'
export const REVIEW_STATE = { [REVIEW_MARK]: true }
export const onPushedReview = () =>
  (globalThis.history?.state as Record<string, unknown> | null)?.[REVIEW_MARK] === true

/**
 * Shows a flow's result at `url` in place of its review: the review's own
 * entry is stepped back over first, so back from the result leaves the flow
 * rather than landing on a spent review.
 */
export function replaceReviewWith(
  navigate: (to: string, options: { replace: true }) => void,
  url: string,
) {
  if (onPushedReview()) {
    addEventListener('popstate', () => navigate(url, { replace: true }), { once: true })
    history.back()
  } else navigate(url, { replace: true })
}
