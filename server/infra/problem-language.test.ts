import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  latestCode,
  sendEmailCode,
  verifyEmail,
  wrongCode,
} from '../domain/otp/otp-test-support.ts'
import {
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  uniqueEmail,
} from '../test-support.ts'
import { PROBLEM_WORDS } from './problem-words.ts'

describeServer('problem details in the language of Accept-Language (issue 34)', () => {
  let app: FastifyInstance
  let email: string
  beforeAll(async () => {
    app = await createTestApp()
    email = uniqueEmail()
    await signUp(app, { email, kyc: false })
  })
  afterAll(() => app?.close())

  const wrongPassword = (acceptLanguage?: string) =>
    signIn(app, {
      email,
      password: 'not the password at all',
      headers: headers(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }),
    })

  it.each([
    ['ar', 'ar'],
    ['de-DE,de;q=0.9', 'de'],
    ['pt-BR', 'pt-BR'],
    ['fr-FR, ru;q=0.7', 'ru'],
  ] as const)(
    '%j reads the app’s words in %s; code, type, title and status stay',
    async (header, language) => {
      const english = expectProblem(await wrongPassword(), 400, 'INVALID_CREDENTIALS')
      const answer = await wrongPassword(header)
      const problem = expectProblem(answer, 400, 'INVALID_CREDENTIALS')

      expect(problem.detail).toBe(PROBLEM_WORDS[language].INVALID_CREDENTIALS)
      expect(problem).toEqual({ ...english, detail: problem.detail })
      expect(answer.headers['content-language']).toBe(language)
      expect(String(answer.headers.vary)).toMatch(/\bAccept-Language\b/)
    },
  )

  it.each([undefined, 'x-klingon', 'en-GB', '*'])(
    '%j keeps the server’s English',
    async (header) => {
      const answer = await wrongPassword(header)
      const problem = expectProblem(answer, 400, 'INVALID_CREDENTIALS')
      expect(problem.detail).toBe('The e-mail or password is wrong.')
      expect(answer.headers['content-language']).toBe('en')
      expect(String(answer.headers.vary)).toMatch(/\bAccept-Language\b/)
    },
  )

  it('a wrong code says how many attempts are left, by the language’s plural rules', async () => {
    const address = uniqueEmail()
    const ip = { 'x-forwarded-for': '198.51.100.34' }
    await sendEmailCode(app, address, {}, headers(ip))
    const code = wrongCode(await latestCode(app, address))
    const inRussian = await verifyEmail(
      app,
      address,
      code,
      headers({ ...ip, 'accept-language': 'ru-RU' }),
    )
    expect(expectProblem(inRussian, 400, 'OTP_INVALID')).toMatchObject({
      attempts_left: 4,
      detail: 'Неверный код. Осталось 4 попытки.',
    })
    const inGerman = await verifyEmail(
      app,
      address,
      code,
      headers({ ...ip, 'accept-language': 'de' }),
    )
    expect(expectProblem(inGerman, 400, 'OTP_INVALID')).toMatchObject({
      attempts_left: 3,
      detail: 'Falscher Code. Noch 3 Versuche.',
    })
  })

  it('a second code too soon says in how many seconds, and a block until when (in UTC)', async () => {
    const address = uniqueEmail()
    const ip = { 'x-forwarded-for': '198.51.100.35' }
    const inSpanish = headers({ ...ip, 'accept-language': 'es-MX' })
    await sendEmailCode(app, address, {}, inSpanish)
    const tooSoon = expectProblem(
      await sendEmailCode(app, address, {}, inSpanish),
      429,
      'RATE_LIMITED',
    )
    expect(tooSoon.retry_after).toBeGreaterThan(0)
    expect(tooSoon.detail).toBe(
      PROBLEM_WORDS.es.RATE_LIMITED_in?.replace('{seconds}', String(tooSoon.retry_after)),
    )

    const code = wrongCode(await latestCode(app, address))
    const inUkrainian = headers({ ...ip, 'accept-language': 'uk' })
    for (let guess = 0; guess < 4; guess++) await verifyEmail(app, address, code, inUkrainian)
    const blocked = expectProblem(
      await verifyEmail(app, address, code, inUkrainian),
      423,
      'OTP_BLOCKED',
    )
    const until = new Date(String(blocked.blocked_until))
    const [lead = ''] = PROBLEM_WORDS.uk.OTP_BLOCKED_until?.split('{time}') ?? []
    expect(lead).not.toBe('')
    expect(blocked.detail).toContain(lead)
    expect(blocked.detail).toContain(until.toISOString().slice(11, 16))
    expect(blocked.detail).toContain('UTC')
  })

  it('a refused body keeps its field list; the lead sentence is the language’s', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-in/password/email',
      headers: headers({ 'accept-language': 'de' }),
      payload: { email },
    })
    const problem = expectProblem(answer, 422, 'VALIDATION_FAILED')
    expect(problem.detail).toBe(PROBLEM_WORDS.de.VALIDATION_FAILED)
    expect(problem.errors).toEqual([
      expect.objectContaining({ field: '/body/password', message: expect.any(String) }),
    ])
  })

  it('a code the app words only by its status keeps its English detail, said to be English', async () => {
    const answer = await app.inject({
      method: 'GET',
      url: '/api/v2/no-such-route',
      headers: headers({ 'accept-language': 'ar' }),
    })
    const problem = expectProblem(answer, 404, 'NOT_FOUND')
    expect(problem.detail).toMatch(/^[\x20-\x7e]+$/)
    expect(answer.headers['content-language']).toBe('en')
  })
})
