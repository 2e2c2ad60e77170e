import type { MessageKey } from '../i18n/en.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { MIN_PASSWORD_LENGTH, type Strength } from './password-strength.ts'

const LEVELS = { fair: 2, good: 3, strong: 4 } as const
const WORDS: Record<'fair' | 'good' | 'strong', MessageKey> = {
  fair: 'auth.strength.fair',
  good: 'auth.strength.good',
  strong: 'auth.strength.strong',
}
const REFUSED: Record<'common' | 'contains_email', MessageKey> = {
  common: 'auth.strength.common',
  contains_email: 'auth.strength.containsEmail',
}

/**
 * Four bars and a few words under the new password, updated as it is typed:
 * how many characters are still missing, why the rule refuses it, or how hard
 * it is to guess. Read out politely, so it never interrupts typing.
 */
export function PasswordStrength(props: { strength: Strength; length: number }) {
  const { t } = useI18n()
  const { strength } = props
  const filled = strength.accepted ? LEVELS[strength.level] : 1
  const tone = strength.accepted ? strength.level : 'refused'
  const words = strength.accepted
    ? t(WORDS[strength.level])
    : strength.problem === 'too_short'
      ? t('auth.strength.short', { count: MIN_PASSWORD_LENGTH - props.length })
      : t(REFUSED[strength.problem])
  return (
    <div className={`strength strength-${tone}`} data-testid="password-strength">
      <span className="strength-bars" aria-hidden="true">
        {[1, 2, 3, 4].map((bar) => (
          <span
            key={bar}
            className={bar <= filled ? 'strength-bar strength-bar-on' : 'strength-bar'}
          />
        ))}
      </span>
      <span className="strength-words" aria-live="polite">
        {words}
      </span>
    </div>
  )
}
