import { type Ref, useEffect, useState } from 'react'
import type { MessageKey } from '../i18n/en.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { TextField } from './fields.tsx'
import { PasswordStrength } from './password-meter.tsx'
import {
  loadCommonPasswords,
  type PasswordProblem,
  type Strength,
  strengthOf,
} from './password-strength.ts'

/** How to fix a password the rule refuses, in the field's own words. */
const FIX: Record<PasswordProblem, MessageKey> = {
  too_short: 'error.passwordShort',
  common: 'auth.password.common',
  contains_email: 'auth.password.containsEmail',
}

/**
 * A new password as it is typed (sign-up, reset, change): its strength by the
 * server's own rule, and what is wrong with it, if anything, in words that
 * say how to fix it. The common-password list loads once typing starts.
 */
export function useNewPassword(
  password: string,
  email: string | undefined,
): { strength: Strength | undefined; error: string | undefined } {
  const { t } = useI18n()
  const common = useCommonPasswords(password !== '')
  const strength = password
    ? strengthOf(password, { email, isCommon: (lower) => common?.has(lower) ?? false })
    : undefined
  const error = !password
    ? t('error.required')
    : strength && !strength.accepted
      ? t(FIX[strength.problem])
      : undefined
  return { strength, error }
}

/**
 * The new-password field: the rule as its hint, the strength meter under it,
 * show/hide, and the browser told it is a new password (so a password manager
 * offers to generate and save one).
 */
export function NewPasswordField(props: {
  label: string
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  strength: Strength | undefined
  error: string | undefined
  name?: string
  inputRef?: Ref<HTMLInputElement>
}) {
  const { t } = useI18n()
  return (
    <div className="stack password-block">
      <TextField
        ref={props.inputRef}
        label={props.label}
        type="password"
        name={props.name ?? 'new-password'}
        autoComplete="new-password"
        required
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        hint={t('auth.passwordRule')}
        error={props.error}
        reveal={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
      />
      {props.strength && (
        <PasswordStrength strength={props.strength} length={[...props.value].length} />
      )}
    </div>
  )
}

/** The common-password list, once wanted (the person started typing a new password). */
function useCommonPasswords(wanted: boolean): ReadonlySet<string> | undefined {
  const [list, setList] = useState<ReadonlySet<string>>()
  useEffect(() => {
    if (!wanted || list) return
    let current = true
    loadCommonPasswords().then(
      (loaded) => {
        if (current) setList(loaded)
      },
      () => {
        // Offline or refused: the meter judges length and e-mail; the server judges the rest.
      },
    )
    return () => {
      current = false
    }
  }, [wanted, list])
  return list
}
