import type { Language } from '../../../contract/languages.ts'
import type { ContactChannel } from '../../../contract/transfers.ts'
import { INVITE_WORDS } from './invite-words.ts'

export type { Language }

/** "12 March", "12 марта", "۲۱ اسفند": the day a claimable transfer goes back, in the words' language. */
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
  /** "€20.00", formatted in `language`. */
  amount: string
  note: string | null
  expiresAt: Date
  signUpUrl: string
  language: Language
}): { subject?: string; body: string } {
  const words = INVITE_WORDS[input.language]
  const by = day(input.expiresAt, input.language)
  const contact = input.channel === 'email' ? words.contact.email : words.contact.phone
  const lead = words.lead(input.senderName, input.amount, input.note)
  const how = words.how(contact, by, input.signUpUrl)
  if (input.channel === 'phone') return { body: `${lead} ${how}` }
  return {
    subject: words.subject(input.senderName, input.amount),
    body: [lead, '', how, '', words.after].join('\n'),
  }
}
