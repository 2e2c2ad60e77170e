import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Language } from '../../../contract/languages.ts'
import { formatAmount } from '../format-amount.ts'
import { inviteMessage } from './invite.ts'

const invite = (language: Language, channel: 'email' | 'phone' = 'email') =>
  inviteMessage({
    channel,
    senderName: 'Mia S.',
    amount: formatAmount(language, '20.00', 'EUR'),
    note: 'Concert tickets',
    expiresAt: new Date('2026-03-12T10:00:00Z'),
    signUpUrl: 'https://app.test/auth/sign-up',
    language,
  })

describe('the invitation a claimable transfer sends', () => {
  it('in English: who sent how much, the note, the day and the link', () => {
    expect(invite('en')).toEqual({
      subject: 'Mia S. sent you €20.00',
      body: [
        'Mia S. sent you €20.00 on Finplatform — “Concert tickets”.',
        '',
        'Sign up with this e-mail address by March 12 and the money is yours: https://app.test/auth/sign-up',
        '',
        'If nobody claims it, it goes back to the sender.',
      ].join('\n'),
    })
    expect(invite('en', 'phone')).toEqual({
      body: 'Mia S. sent you €20.00 on Finplatform — “Concert tickets”. Sign up with this phone number by March 12 and the money is yours: https://app.test/auth/sign-up',
    })
  })

  // The day as each language writes it (Persian in its own calendar and digits).
  it.each([
    ['ru', '20,00 €', '12 марта'],
    ['uk', '20,00 EUR', '12 березня'],
    ['de', '20,00 €', '12. März'],
    ['es', '20,00 €', '12 de marzo'],
    ['pt-BR', '€ 20,00', '12 de março'],
    ['tr', '€20,00', '12 Mart'],
    ['id', '€20,00', '12 Maret'],
    ['fa', '€۲۰٫۰۰', '۲۱ اسفند'],
    ['ar', '20.00 €', '12 مارس'],
  ] as const)(
    'in %s, with its amount (%s) and day (%s), and not in English',
    (language, amount, day) => {
      const mail = invite(language)
      const sms = invite(language, 'phone')
      for (const text of [mail.subject!, mail.body, sms.body]) {
        expect(text.replace(/[\u00a0\u200e\u200f]/g, ' ').replace(/ +/g, ' ')).toContain(amount)
      }
      expect(mail.body).toContain(day)
      expect(mail.body).toContain('Concert tickets')
      expect(mail.body).toContain('https://app.test/auth/sign-up')
      expect(mail.subject).not.toBe(invite('en').subject)
      expect(mail.body.split('\n').at(-1)).not.toBe(invite('en').body.split('\n').at(-1))
      expect(sms.subject).toBeUndefined()
    },
  )

  it('has every language', () => {
    for (const language of LANGUAGES) expect(invite(language).body).not.toBe('')
  })
})
