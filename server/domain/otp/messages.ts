import type { OtpChannel, OtpPurpose } from '../../../contract/otp.ts'
import type { USER_LANGUAGES } from '../../../contract/user.ts'

export type Language = (typeof USER_LANGUAGES)[number]

interface Catalogue {
  body: (code: string, lifetime: string) => string
  subject: Record<OtpPurpose, string>
  /** Added to e-mail only: an SMS stays one short segment. */
  ignore: string
}

/** The languages a code message is written in so far; any other reads English. */
const CATALOGUES: Partial<Record<Language, Catalogue>> & { en: Catalogue } = {
  en: {
    body: (code, lifetime) => `Your Finplatform code is ${code}. It expires in ${lifetime}.`,
    subject: {
      sign_in: 'Your Finplatform sign-in code',
      change_email: 'Confirm your new e-mail address for Finplatform',
      change_phone: 'Confirm your new phone number for Finplatform',
      step_up: 'Your Finplatform confirmation code',
      password_reset: 'Reset your Finplatform password',
    },
    ignore: 'If you did not ask for this code, ignore this message. Never tell it to anyone.',
  },
  ru: {
    body: (code, lifetime) => `Ваш код Finplatform: ${code}. Срок действия — ${lifetime}.`,
    subject: {
      sign_in: 'Код для входа в Finplatform',
      change_email: 'Подтвердите новый адрес e-mail в Finplatform',
      change_phone: 'Подтвердите новый номер телефона в Finplatform',
      step_up: 'Код подтверждения Finplatform',
      password_reset: 'Сброс пароля Finplatform',
    },
    ignore:
      'Если вы не запрашивали код, просто проигнорируйте это сообщение. Никому его не сообщайте.',
  },
}

/**
 * "5 minutes", "5 минут", "1 минута": Intl picks the plural form. The Russian
 * sentence is built so the number stands in the nominative, the only case Intl
 * gives.
 */
function lifetime(seconds: number, language: Language): string {
  const whole = seconds % 60 === 0
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: whole ? 'minute' : 'second',
    unitDisplay: 'long',
  }).format(whole ? seconds / 60 : seconds)
}

/** The text of a code message, in the person's language. */
export function composeMessage(input: {
  channel: OtpChannel
  purpose: OtpPurpose
  code: string
  language: Language
  ttlSeconds: number
}): { subject?: string; body: string } {
  const catalogue = CATALOGUES[input.language] ?? CATALOGUES.en
  const body = catalogue.body(input.code, lifetime(input.ttlSeconds, input.language))
  if (input.channel === 'sms') return { body }
  return { subject: catalogue.subject[input.purpose], body: `${body}\n\n${catalogue.ignore}` }
}
