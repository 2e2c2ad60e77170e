import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { OtpSent } from '../../../contract/otp.ts'
import { createTestApp, describeServer, expectProblem, uniqueEmail } from '../../test-support.ts'
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
  wrongCode,
} from './otp-test-support.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describeServer('one-time codes: used once, a few guesses, one a minute', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  it('a code works once: using it again answers 400 OTP_INVALID', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    expect((await verifyEmail(app, email, code)).statusCode).toBe(200)
    const again = expectProblem(await verifyEmail(app, email, code), 400, 'OTP_INVALID')
    expect(again.attempts_left).toBe(4)
  })

  it('a wrong code answers 400 OTP_INVALID with the attempts left, and the right code still works', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const first = expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    expect(first.attempts_left).toBe(4)
    const second = expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    expect(second.attempts_left).toBe(3)
    expect((await verifyEmail(app, email, code)).statusCode).toBe(200)
  })

  it('a code for an address nobody asked a code for is just wrong: 400 OTP_INVALID', async () => {
    expectProblem(await verifyEmail(app, uniqueEmail(), '123456'), 400, 'OTP_INVALID')
  })

  it('five wrong codes block the address: 423 OTP_BLOCKED with blocked_until, even for the right code, and no code is sent meanwhile', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    for (const left of [4, 3, 2, 1]) {
      const problem = expectProblem(
        await verifyEmail(app, email, wrongCode(code)),
        400,
        'OTP_INVALID',
      )
      expect(problem.attempts_left).toBe(left)
    }
    const startedAt = Date.now()
    const blocked = await verifyEmail(app, email, wrongCode(code))
    const answeredAt = Date.now()
    const problem = expectProblem(blocked, 423, 'OTP_BLOCKED')
    const until = Date.parse(problem.blocked_until!)
    expect(problem.blocked_until).toBe(new Date(until).toISOString())
    // The server takes its clock inside the request: between our two readings.
    expect(until).toBeGreaterThanOrEqual(startedAt + 15 * 60_000)
    expect(until).toBeLessThanOrEqual(answeredAt + 15 * 60_000)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60)

    expectProblem(await verifyEmail(app, email, code), 423, 'OTP_BLOCKED')
    const send = expectProblem(await sendEmailCode(app, email), 423, 'OTP_BLOCKED')
    expect(send.blocked_until).toBe(problem.blocked_until)
    expect(await outbox(app, email)).toHaveLength(1)
    // Only this address: another one is unaffected.
    expect((await sendEmailCode(app, uniqueEmail())).statusCode).toBe(200)
  })

  it('a second code within a minute answers 429 RATE_LIMITED with Retry-After, for that identifier only', async () => {
    const email = uniqueEmail()
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    const again = await sendEmailCode(app, email.toUpperCase())
    const problem = expectProblem(again, 429, 'RATE_LIMITED')
    const retryAfter = Number(again.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(50)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(problem.retry_after).toBe(retryAfter)
    expect(await outbox(app, email)).toHaveLength(1)
    expect((await sendEmailCode(app, uniqueEmail())).statusCode).toBe(200)

    const phone = uniquePhone()
    expect((await sendPhoneCode(app, phone)).statusCode).toBe(200)
    expectProblem(await sendPhoneCode(app, digitsOf(phone)), 429, 'RATE_LIMITED')
  })

  it('two sends to one address at once make one code: the other answers 429', async () => {
    const email = uniqueEmail()
    const answers = await Promise.all([sendEmailCode(app, email), sendEmailCode(app, email)])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429])
    expect(await outbox(app, email)).toHaveLength(1)
  })

  it('one code used twice at once signs in once', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const answers = await Promise.all([
      verifyEmail(app, email, code),
      verifyEmail(app, email, code),
    ])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400])
    expect(await usersWith(app, 'email', email)).toHaveLength(1)
  })

  it('codes are stored hashed: the code itself appears nowhere in the stored rows', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    const rows = await app.db
      .selectFrom('otp_codes')
      .selectAll()
      .where('identifier', '=', email)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      channel: 'email',
      purpose: 'sign_in',
      user_id: null,
      consumed_at: null,
      code_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(JSON.stringify(rows)).not.toContain(code)
    const attempts = await app.db.selectFrom('otp_attempts').selectAll().execute()
    expect(JSON.stringify(attempts)).not.toContain(code)
  })
})

describeServer('one-time codes with a one-second lifetime (OTP_TTL=1)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ OTP_TTL: '1', OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  it('an expired code answers 419 OTP_EXPIRED', async () => {
    const email = uniqueEmail()
    const sent = await sendEmailCode(app, email)
    expect(sent.json<OtpSent>()).toMatchObject({ expires_in: 1, resend_in: 0 })
    const code = await latestCode(app, email)
    await sleep(1_100)
    const problem = expectProblem(await verifyEmail(app, email, code), 419, 'OTP_EXPIRED')
    expect(problem.title).toBe('Verification Expired')
    // Expiry is not a wrong guess: it does not count towards a block.
    const attempts = await app.db
      .selectFrom('otp_attempts')
      .select('failed_attempts')
      .where('identifier', '=', email)
      .executeTakeFirst()
    expect(attempts?.failed_attempts).toBe(0)
  })

  it('the message says how long the code lasts', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    expect((await outbox(app, email))[0]!.body).toContain('It expires in 1 second.')
  })
})

describeServer('one-time codes with no resend interval', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    // The default 15-minute block: wrong codes a slow inject apart still count together.
    app = await createTestApp({ OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  it('"+1 (415) 555-…", "+1415555…" and "1415555…" are one person: one account, and any form finds it', async () => {
    const typed = uniquePhone()
    const digits = digitsOf(typed)
    expect((await sendPhoneCode(app, typed)).statusCode).toBe(200)
    const first = await verifyPhone(app, `+${digits}`, await latestCode(app, digits))
    const id = (await userOf(app, first.json())).id

    // Another code, asked for with bare digits, signs the same account in.
    expect((await sendPhoneCode(app, digits, { create_user: false })).statusCode).toBe(200)
    const second = await verifyPhone(app, typed, await latestCode(app, typed))
    expect(second.statusCode, second.body).toBe(200)
    expect((await userOf(app, second.json())).id).toBe(id)
    expect(await usersWith(app, 'phone', digits)).toHaveLength(1)
  })

  it('a newer code supersedes the older one, and the outbox lists them newest first', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    await sendEmailCode(app, email)
    const [newer, older] = await outbox(app, email)
    expect(Date.parse(newer!.created_at)).toBeGreaterThanOrEqual(Date.parse(older!.created_at))
    expect(newer!.id > older!.id).toBe(true)
    if (older!.code !== newer!.code) {
      expectProblem(await verifyEmail(app, email, older!.code), 400, 'OTP_INVALID')
    }
    expect((await verifyEmail(app, email, newer!.code)).statusCode).toBe(200)
    const reasons = await app.db
      .selectFrom('otp_codes')
      .select('consumed_reason')
      .where('identifier', '=', email)
      .orderBy('created_at')
      .execute()
    expect(reasons.map((row) => row.consumed_reason)).toEqual(['superseded', 'verified'])
  })

  it('after a block lifts, a new code works, and codes sent before the block stay dead', async () => {
    const email = uniqueEmail()
    await sendEmailCode(app, email)
    const code = await latestCode(app, email)
    for (let attempt = 0; attempt < 4; attempt++) {
      expectProblem(await verifyEmail(app, email, wrongCode(code)), 400, 'OTP_INVALID')
    }
    expectProblem(await verifyEmail(app, email, wrongCode(code)), 423, 'OTP_BLOCKED')
    expectProblem(await sendEmailCode(app, email), 423, 'OTP_BLOCKED')
    // The block lifts: its end moved into the past (no sleep racing a one-second block).
    await app.db
      .updateTable('otp_attempts')
      .set({ blocked_until: new Date(Date.now() - 1_000) })
      .where('identifier', '=', email)
      .execute()
    const stale = expectProblem(await verifyEmail(app, email, code), 400, 'OTP_INVALID')
    expect(stale.attempts_left).toBe(4)
    expect((await sendEmailCode(app, email)).statusCode).toBe(200)
    expect((await verifyEmail(app, email, await latestCode(app, email))).statusCode).toBe(200)
  })
})
