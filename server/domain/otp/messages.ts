import type { Language } from '../../../contract/languages.ts'
import type { OtpChannel, OtpPurpose } from '../../../contract/otp.ts'

export type { Language }

interface Catalogue {
  body: (code: string, lifetime: string) => string
  subject: Record<OtpPurpose, string>
  /** Added to e-mail only: an SMS stays one short segment. */
  ignore: string
}

/** A code message in every language the product speaks (contract/languages.ts). */
const CATALOGUES: Record<Language, Catalogue> = {
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
  uk: {
    body: (code, lifetime) => `Ваш код Finplatform: ${code}. Термін дії — ${lifetime}.`,
    subject: {
      sign_in: 'Код для входу у Finplatform',
      change_email: 'Підтвердьте нову адресу ел. пошти у Finplatform',
      change_phone: 'Підтвердьте новий номер телефону у Finplatform',
      step_up: 'Код підтвердження Finplatform',
      password_reset: 'Відновлення пароля Finplatform',
    },
    ignore:
      'Якщо ви не запитували код, просто проігноруйте це повідомлення. Нікому його не повідомляйте.',
  },
  de: {
    body: (code, lifetime) => `Dein Finplatform-Code lautet ${code}. Er ist ${lifetime} gültig.`,
    subject: {
      sign_in: 'Dein Anmeldecode für Finplatform',
      change_email: 'Bestätige deine neue E-Mail-Adresse für Finplatform',
      change_phone: 'Bestätige deine neue Telefonnummer für Finplatform',
      step_up: 'Dein Bestätigungscode für Finplatform',
      password_reset: 'Setze dein Finplatform-Passwort zurück',
    },
    ignore:
      'Wenn du diesen Code nicht angefordert hast, ignoriere diese Nachricht. Gib ihn niemals an andere weiter.',
  },
  es: {
    body: (code, lifetime) => `Tu código de Finplatform es ${code}. Caduca en ${lifetime}.`,
    subject: {
      sign_in: 'Tu código para iniciar sesión en Finplatform',
      change_email: 'Confirma tu nuevo correo electrónico en Finplatform',
      change_phone: 'Confirma tu nuevo número de teléfono en Finplatform',
      step_up: 'Tu código de confirmación de Finplatform',
      password_reset: 'Restablece tu contraseña de Finplatform',
    },
    ignore: 'Si no has pedido este código, ignora este mensaje. No se lo digas nunca a nadie.',
  },
  'pt-BR': {
    body: (code, lifetime) => `Seu código do Finplatform é ${code}. Ele expira em ${lifetime}.`,
    subject: {
      sign_in: 'Seu código de acesso ao Finplatform',
      change_email: 'Confirme seu novo e-mail no Finplatform',
      change_phone: 'Confirme seu novo número de celular no Finplatform',
      step_up: 'Seu código de confirmação do Finplatform',
      password_reset: 'Redefina sua senha do Finplatform',
    },
    ignore: 'Se você não pediu este código, ignore esta mensagem. Nunca o informe a ninguém.',
  },
  tr: {
    body: (code, lifetime) => `Finplatform kodunuz: ${code}. Geçerlilik süresi: ${lifetime}.`,
    subject: {
      sign_in: 'Finplatform giriş kodunuz',
      change_email: 'Finplatform için yeni e-posta adresinizi onaylayın',
      change_phone: 'Finplatform için yeni telefon numaranızı onaylayın',
      step_up: 'Finplatform onay kodunuz',
      password_reset: 'Finplatform şifrenizi sıfırlayın',
    },
    ignore: 'Bu kodu siz istemediyseniz bu mesajı dikkate almayın. Kodu asla kimseyle paylaşmayın.',
  },
  id: {
    body: (code, lifetime) => `Kode Finplatform Anda: ${code}. Berlaku selama ${lifetime}.`,
    subject: {
      sign_in: 'Kode masuk Finplatform Anda',
      change_email: 'Konfirmasi alamat email baru Anda untuk Finplatform',
      change_phone: 'Konfirmasi nomor telepon baru Anda untuk Finplatform',
      step_up: 'Kode konfirmasi Finplatform Anda',
      password_reset: 'Atur ulang kata sandi Finplatform Anda',
    },
    ignore:
      'Jika Anda tidak meminta kode ini, abaikan pesan ini. Jangan pernah memberikannya kepada siapa pun.',
  },
  fa: {
    body: (code, lifetime) => `کد Finplatform شما: ${code}. این کد تا ${lifetime} معتبر است.`,
    subject: {
      sign_in: 'کد ورود شما به Finplatform',
      change_email: 'ایمیل جدید خود را در Finplatform تأیید کنید',
      change_phone: 'شمارهٔ تلفن جدید خود را در Finplatform تأیید کنید',
      step_up: 'کد تأیید Finplatform شما',
      password_reset: 'بازیابی رمز عبور Finplatform',
    },
    ignore: 'اگر این کد را درخواست نکرده‌اید، این پیام را نادیده بگیرید. هرگز آن را به کسی نگویید.',
  },
  ar: {
    body: (code, lifetime) =>
      `رمز Finplatform الخاص بك هو ${code}. تنتهي صلاحيته خلال ${lifetime}.`,
    subject: {
      sign_in: 'رمز تسجيل الدخول إلى Finplatform',
      change_email: 'أكّد بريدك الإلكتروني الجديد في Finplatform',
      change_phone: 'أكّد رقم هاتفك الجديد في Finplatform',
      step_up: 'رمز التأكيد من Finplatform',
      password_reset: 'إعادة تعيين كلمة مرور Finplatform',
    },
    ignore: 'إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة. لا تُطلع أحدًا عليه أبدًا.',
  },
}

/**
 * "5 minutes", "5 минут", "۵ دقیقه": Intl picks the plural form and the
 * language's digits. Each sentence is built so the number stands where the
 * nominative reads right (the only case Intl gives): "Срок действия — 5
 * минут", "Термін дії — 5 хвилин".
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
  const catalogue = CATALOGUES[input.language]
  const body = catalogue.body(input.code, lifetime(input.ttlSeconds, input.language))
  if (input.channel === 'sms') return { body }
  return { subject: catalogue.subject[input.purpose], body: `${body}\n\n${catalogue.ignore}` }
}
