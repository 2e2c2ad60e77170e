import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { Language } from '../../../contract/languages.ts'
import type { OtpSent } from '../../../contract/otp.ts'
import {
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import {
  digitsOf,
  latestCode,
  outbox,
  sendEmailCode,
  sendPhoneCode,
  uniquePhone,
  userOf,
  usersWith,
  verifyEmail,
  verifyPhone,
} from './otp-test-support.ts'

describeServer('signing in with a one-time code (default settings)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('an e-mail code signs a new address up: the account exists only once the code is used', async () => {
    const email = uniqueEmail('otp')
    const sent = await sendEmailCode(app, email)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json<OtpSent>()).toEqual({
      channel: 'email',
      destination: `o•••@example.com`,
      expires_in: 300,
      resend_in: 60,
    })
    expect(await usersWith(app, 'email', email)).toHaveLength(0)

    const verified = await verifyEmail(app, email, await latestCode(app, email))
    expect(verified.statusCode, verified.body).toBe(200)
    const pair = verified.json<TokenPair>()
    expect(pair).toMatchObject({ token_type: 'bearer', expires_in: 900 })
    expect(await userOf(app, pair)).toMatchObject({ email, phone: null, kyc_status: 'UNVERIFIED' })
    const profile = await app.inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers({ authorization: `Bearer ${pair.access_token}` }),
    })
    expect(profile.statusCode, profile.body).toBe(200)
  })

  it('an e-mail is one identifier whatever its letter case', async () => {
    const email = uniqueEmail('Case')
    expect((await sendEmailCode(app, email.toUpperCase())).statusCode).toBe(200)
    const [message] = await outbox(app, email.toUpperCase())
    expect(message?.to).toBe(email.toLowerCase())
    const verified = await verifyEmail(app, email, message!.code)
    expect(verified.statusCode, verified.body).toBe(200)
    expect((await userOf(app, verified.json())).email).toBe(email.toLowerCase())
  })

  it('a phone code signs in, whatever format the number is typed in', async () => {
    const typed = uniquePhone()
    const digits = digitsOf(typed)
    const sent = await sendPhoneCode(app, typed)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json<OtpSent>()).toEqual({
      channel: 'sms',
      destination: `•••••••${digits.slice(-4)}`,
      expires_in: 300,
      resend_in: 60,
    })
    const [message] = await outbox(app, `+${digits}`)
    expect(message).toMatchObject({ channel: 'sms', to: digits, purpose: 'sign_in', subject: null })

    const verified = await verifyPhone(app, digits, message!.code)
    expect(verified.statusCode, verified.body).toBe(200)
    expect(await userOf(app, verified.json())).toMatchObject({ phone: digits, email: null })
    expect(await usersWith(app, 'phone', digits)).toHaveLength(1)
  })

  it('a number that cannot be a phone number answers 422 saying so, when sending and when verifying', async () => {
    for (const phone of ['12345', 'call me maybe', '+999 123 456 789']) {
      const problem = expectProblem(await sendPhoneCode(app, phone), 422, 'VALIDATION_FAILED')
      expect(problem.errors).toEqual([
        { field: '/body/phone', message: 'is not a valid phone number' },
      ])
    }
    expectProblem(await verifyPhone(app, '12345', '123456'), 422, 'VALIDATION_FAILED')
  })

  it('an existing account signs in with a code to its e-mail: the same account, no second one', async () => {
    const email = uniqueEmail()
    const password = await signUp(app, { email })
    const before = await userOf(app, password)
    expect((await sendEmailCode(app, email, { create_user: false })).statusCode).toBe(200)
    const verified = await verifyEmail(app, email, await latestCode(app, email))
    expect(verified.statusCode, verified.body).toBe(200)
    expect((await userOf(app, verified.json())).id).toBe(before.id)
    expect(await usersWith(app, 'email', email)).toHaveLength(1)
  })

  it('create_user: false for an unknown address answers 404 USER_NOT_FOUND and sends nothing', async () => {
    const email = uniqueEmail()
    expectProblem(await sendEmailCode(app, email, { create_user: false }), 404, 'USER_NOT_FOUND')
    expectProblem(
      await sendPhoneCode(app, uniquePhone(), { create_user: false }),
      404,
      'USER_NOT_FOUND',
    )
    expect(await outbox(app, email)).toEqual([])
  })

  it('the outbox holds each message with its code, purpose, subject and time, in the language asked for', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email, { language: 'ru' })
    const [message] = await outbox(app, email)
    expect(message).toEqual({
      id: expect.any(String),
      channel: 'email',
      to: email,
      purpose: 'sign_in',
      code: expect.stringMatching(/^\d{6}$/),
      subject: 'Код для входа в Finplatform',
      body: expect.stringContaining(
        `Ваш код Finplatform: ${message!.code}. Срок действия — 5 минут.`,
      ),
      created_at: expect.any(String),
    })
    expect(Math.abs(Date.parse(message!.created_at) - Date.now())).toBeLessThan(60_000)

    const english = uniqueEmail()
    await sendEmailCode(app, english)
    const [en] = await outbox(app, english)
    expect(en!.subject).toBe('Your Finplatform sign-in code')
    expect(en!.body).toContain(`Your Finplatform code is ${en!.code}. It expires in 5 minutes.`)

    const phone = uniquePhone()
    await sendPhoneCode(app, phone)
    const [sms] = await outbox(app, phone)
    expect(sms!.body).toBe(`Your Finplatform code is ${sms!.code}. It expires in 5 minutes.`)
  })

  // Each language's sign-in subject and sentence, the lifetime in its words and digits.
  const languages: Array<[Language, string, (code: string) => string]> = [
    [
      'uk',
      'Код для входу у Finplatform',
      (c) => `Ваш код Finplatform: ${c}. Термін дії — 5 хвилин.`,
    ],
    [
      'de',
      'Dein Anmeldecode für Finplatform',
      (c) => `Dein Finplatform-Code lautet ${c}. Er ist 5 Minuten gültig.`,
    ],
    [
      'es',
      'Tu código para iniciar sesión en Finplatform',
      (c) => `Tu código de Finplatform es ${c}. Caduca en 5 minutos.`,
    ],
    [
      'pt-BR',
      'Seu código de acesso ao Finplatform',
      (c) => `Seu código do Finplatform é ${c}. Ele expira em 5 minutos.`,
    ],
    [
      'tr',
      'Finplatform giriş kodunuz',
      (c) => `Finplatform kodunuz: ${c}. Geçerlilik süresi: 5 dakika.`,
    ],
    [
      'id',
      'Kode masuk Finplatform Anda',
      (c) => `Kode Finplatform Anda: ${c}. Berlaku selama 5 menit.`,
    ],
    [
      'fa',
      'کد ورود شما به Finplatform',
      (c) => `کد Finplatform شما: ${c}. این کد تا ۵ دقیقه معتبر است.`,
    ],
    [
      'ar',
      'رمز تسجيل الدخول إلى Finplatform',
      (c) => `رمز Finplatform الخاص بك هو ${c}. تنتهي صلاحيته خلال 5 دقائق.`,
    ],
  ]
  it.each(languages)(
    'an e-mail code asked for in %s arrives in it',
    async (language, subject, sentence) => {
      const email = uniqueEmail(`otp-${language}`)
      const sent = await sendEmailCode(app, email, { language })
      expect(sent.statusCode, sent.body).toBe(200)
      const [message] = await outbox(app, email)
      expect(message!.subject).toBe(subject)
      expect(message!.body.startsWith(`${sentence(message!.code!)}\n\n`), message!.body).toBe(true)
    },
  )

  it('a message the provider refuses answers 502 MESSAGE_NOT_DELIVERED and leaves no usable code behind', async () => {
    const email = `${uniqueEmail().split('@')[0]}@fail.test`
    const refused = expectProblem(await sendEmailCode(app, email), 502, 'MESSAGE_NOT_DELIVERED')
    expect(refused.detail).not.toContain(email)
    const rows = await app.db
      .selectFrom('otp_codes')
      .select('id')
      .where('identifier', '=', email)
      .execute()
    expect(rows).toEqual([])
    expect(await outbox(app, email)).toEqual([])
    // Nothing was half-sent: trying again is not held back by the resend interval.
    expectProblem(await sendEmailCode(app, email), 502, 'MESSAGE_NOT_DELIVERED')
    expect(await usersWith(app, 'email', email)).toHaveLength(0)

    const phone = '+1 415 555 0000'
    expectProblem(await sendPhoneCode(app, phone), 502, 'MESSAGE_NOT_DELIVERED')
    expect(await outbox(app, phone)).toEqual([])
  })

  it('an account blocked by the tenant gets 423 USER_BLOCKED for a right code', async () => {
    const email = uniqueEmail()
    await signUp(app, { email })
    await app.db
      .updateTable('users')
      .set({ blocked_at: new Date() })
      .where('email', '=', email)
      .execute()
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    expectProblem(await verifyEmail(app, email, await latestCode(app, email)), 423, 'USER_BLOCKED')
  })

  it('a code is good only in the tenant that sent it', async () => {
    const tenant = await createTenant(app)
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const [message] = await outbox(app, email)
    expectProblem(
      await verifyEmail(app, email, message!.code, headers({ 'x-tenant-id': tenant })),
      400,
      'OTP_INVALID',
    )
    // …and the outbox can be read per tenant.
    expect(await outbox(app, email, { tenant_id: tenant })).toEqual([])
    expect((await verifyEmail(app, email, message!.code)).statusCode).toBe(200)
  })
})

describeServer('outside the sandbox', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ SANDBOX: 'false' })
  })
  afterAll(() => app?.close())

  it('GET /api/sandbox/outbox does not exist: 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/sandbox/outbox?to=a@b.c' })
    expectProblem(response, 404, 'NOT_FOUND')
  })

  it('codes are still sent (to the sandbox provider, the only SMS provider there is)', async () => {
    expect((await sendPhoneCode(app, uniquePhone())).statusCode).toBe(200)
  })
})
