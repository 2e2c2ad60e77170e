import type { ContactChannel } from '../../../contract/transfers.ts'

export type Language = 'en' | 'ru'

/** "12 March", "12 марта": the day a claimable transfer goes back, in the words' language. */
const day = (at: Date, language: Language) =>
  new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(at)

/**
 * The invitation a claimable transfer sends to its contact: who sent how
 * much, the note, that signing up with this very e-mail or phone claims it,
 * and until when. In the sender's language (the recipient has none here yet).
 * An SMS is the sentence and the link only.
 */
export function inviteMessage(input: {
  channel: Extract<ContactChannel, 'email' | 'phone'>
  senderName: string
  /** "20.00 EUR". */
  amount: string
  note: string | null
  expiresAt: Date
  signUpUrl: string
  language: Language
}): { subject?: string; body: string } {
  const ru = input.language === 'ru'
  const by = day(input.expiresAt, input.language)
  const contact =
    input.channel === 'email'
      ? ru
        ? 'этот e-mail'
        : 'this e-mail address'
      : ru
        ? 'этот номер'
        : 'this phone number'
  const lead = ru
    ? `${input.senderName} отправил(а) вам ${input.amount} в Finplatform${input.note ? ` — «${input.note}»` : ''}.`
    : `${input.senderName} sent you ${input.amount} on Finplatform${input.note ? ` — “${input.note}”` : ''}.`
  const how = ru
    ? `Зарегистрируйтесь на ${contact} до ${by}, и деньги будут ваши: ${input.signUpUrl}`
    : `Sign up with ${contact} by ${by} and the money is yours: ${input.signUpUrl}`
  if (input.channel === 'phone') return { body: `${lead} ${how}` }
  const after = ru
    ? 'Если перевод никто не получит, он вернётся отправителю.'
    : 'If nobody claims it, it goes back to the sender.'
  return {
    subject: ru
      ? `${input.senderName}: ${input.amount} для вас`
      : `${input.senderName} sent you ${input.amount}`,
    body: [lead, '', how, '', after].join('\n'),
  }
}
