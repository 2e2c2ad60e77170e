import type { ApiKey, ApiKeyRole } from '../../../contract/developer.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { ApiError } from '../../net/api.ts'

/** What the create and edit forms hold, as typed. */
export interface KeyFormValues {
  name: string
  role: ApiKeyRole
  /** One address or network per line (commas and spaces separate too). */
  ips: string
}

/** A field's problem: a catalogue key and its parameters. */
export interface FieldProblem {
  key: MessageKey
  params?: Record<string, string | number>
}
export type KeyFormProblems = Partial<Record<'name' | 'ips', FieldProblem>>

/** The API's bound on a key's name. */
const NAME_MAX = 100

/** The allow-list as the API takes it: the entries, blank ones dropped. */
export const ipsOf = (text: string) => text.split(/[\s,]+/).filter((entry) => entry !== '')

export const ipsText = (ips: readonly string[]) => ips.join('\n')

export const formOf = (key: ApiKey): KeyFormValues => ({
  name: key.name,
  role: key.role,
  ips: ipsText(key.allowed_ips),
})

/** What the browser can tell before sending; the addresses themselves the server judges. */
export function checkKeyForm(values: KeyFormValues): KeyFormProblems {
  const name = values.name.trim()
  if (name === '') return { name: { key: 'error.required' } }
  if (name.length > NAME_MAX) return { name: { key: 'error.field.name' } }
  return {}
}

/**
 * The fields a 422 names, in our words: `/body/allowed_ips/<i>` is the
 * i-th entry, which is the i-th non-blank line people typed.
 */
export function refusedKeyFields(error: unknown): KeyFormProblems {
  const found: KeyFormProblems = {}
  if (!(error instanceof ApiError) || error.status !== 422) return found
  for (const { field } of error.problem?.errors ?? []) {
    const entry = /^\/body\/allowed_ips\/(\d+)$/.exec(field)
    if (entry && !found.ips) {
      found.ips = { key: 'dev.form.ipInvalid', params: { line: Number(entry[1]) + 1 } }
    } else if (field === '/body/name' && !found.name) {
      found.name = { key: 'error.field.name' }
    }
  }
  return found
}

/** Only what changed, for POST /developer/access/update. */
export function changesOf(key: ApiKey, values: KeyFormValues) {
  const name = values.name.trim()
  const ips = ipsOf(values.ips)
  const sameIps =
    ips.length === key.allowed_ips.length && ips.every((ip, i) => ip === key.allowed_ips[i])
  return {
    ...(name !== key.name && { name }),
    ...(values.role !== key.role && { role: values.role }),
    ...(!sameIps && { allowed_ips: ips }),
  }
}
