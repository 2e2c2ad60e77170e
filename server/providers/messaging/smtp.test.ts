import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OtpSent } from '../../../contract/otp.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  digitsOf,
  outbox,
  sendEmailCode,
  sendPhoneCode,
  uniquePhone,
  verifyEmail,
} from '../../domain/otp/otp-test-support.ts'
import { createTestApp, describeServer, expectProblem, uniqueEmail } from '../../test-support.ts'
import { MessageNotDeliveredError, type OutgoingMessage } from './messaging.ts'
import { SmtpMessaging } from './smtp.ts'

interface Received {
  from: string | undefined
  to: string[]
  raw: string
}

/**
 * An SMTP server in the test process on 127.0.0.1 (a free port): it keeps
 * every message it accepts, and refuses recipients whose address starts with
 * "reject".
 */
async function startSmtpSink() {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('reject')) {
        return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }))
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The text of a message as sent: headers unfolded, quoted-printable soft breaks joined. */
const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n')

const message = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  tenantId: DEMO_TENANT_ID,
  channel: 'email',
  to: 'ada@example.com',
  purpose: 'sign_in',
  code: '042917',
  language: 'en',
  subject: 'Your Finplatform sign-in code',
  body: 'Your Finplatform code is 042917. It expires in 5 minutes.',
  ...overrides,
})

describe('the SMTP adapter', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  let smtp: SmtpMessaging
  beforeAll(async () => {
    sink = await startSmtpSink()
    smtp = new SmtpMessaging({ url: sink.url, from: 'Finplatform <codes@finplatform.test>' })
  })
  afterAll(async () => {
    await smtp?.close()
    await sink?.close()
  })

  it('delivers the message to the SMTP server with its sender, subject and code', async () => {
    await smtp.send(message())
    const mail = sink.received.at(-1)!
    expect(mail.from).toBe('codes@finplatform.test')
    expect(mail.to).toEqual(['ada@example.com'])
    const text = readable(mail.raw)
    expect(text).toMatch(/^Subject: Your Finplatform sign-in code$/m)
    expect(text).toMatch(/^Content-Language: en$/m)
    expect(text).toContain('Your Finplatform code is 042917. It expires in 5 minutes.')
  })

  it('a recipient the server refuses is a MessageNotDeliveredError', async () => {
    const refused = smtp.send(message({ to: 'reject-me@example.com' }))
    await expect(refused).rejects.toBeInstanceOf(MessageNotDeliveredError)
  })

  it('an unreachable server is a MessageNotDeliveredError, within the adapter’s timeout', async () => {
    const closed = await startSmtpSink()
    await closed.close()
    const nowhere = new SmtpMessaging({ url: closed.url, from: 'x@y.test', timeoutMs: 2_000 })
    await expect(nowhere.send(message())).rejects.toBeInstanceOf(MessageNotDeliveredError)
    await nowhere.close()
  })

  it('refuses to carry SMS', async () => {
    await expect(smtp.send(message({ channel: 'sms', to: '14155552671' }))).rejects.toBeInstanceOf(
      MessageNotDeliveredError,
    )
  })
})

describeServer('with SMTP_URL set', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>
  let app: FastifyInstance
  beforeAll(async () => {
    sink = await startSmtpSink()
    app = await createTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Codes <codes@finplatform.test>' })
  })
  afterAll(async () => {
    await app?.close()
    await sink?.close()
  })

  it('e-mail codes go out through SMTP, and the code in the e-mail signs in', async () => {
    const email = uniqueEmail('smtp')
    const sent = await sendEmailCode(app, email, { language: 'ru' })
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json<OtpSent>().channel).toBe('email')

    const mail = sink.received.find((received) => received.to.includes(email))
    expect(mail?.from).toBe('codes@finplatform.test')
    const text = readable(mail!.raw)
    // A Russian subject travels MIME-encoded; its presence and the code in the body are what count.
    expect(text).toMatch(/^Subject: =\?UTF-8\?/m)
    expect(text).toMatch(/^Content-Language: ru$/m)
    expect(await outbox(app, email)).toEqual([])

    const body = decodedBody(mail!.raw)
    expect(body).toContain('Срок действия — 5 минут.')
    const code = /Finplatform: (\d{6})\./.exec(body)
    expect(code, body).not.toBeNull()
    expect((await verifyEmail(app, email, code![1]!)).statusCode).toBe(200)
  })

  it('a recipient the SMTP server refuses answers 502 MESSAGE_NOT_DELIVERED', async () => {
    expectProblem(await sendEmailCode(app, `reject-${uniqueEmail()}`), 502, 'MESSAGE_NOT_DELIVERED')
  })

  it('SMS still goes to the sandbox outbox', async () => {
    const phone = uniquePhone()
    expect((await sendPhoneCode(app, phone)).statusCode).toBe(200)
    expect(await outbox(app, digitsOf(phone))).toHaveLength(1)
  })
})

/** The decoded text of a single-part message, whichever transfer encoding nodemailer chose. */
function decodedBody(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const body = rest.join('\n')
  const encoding = /^Content-Transfer-Encoding: (.+)$/im.exec(head)?.[1]?.trim().toLowerCase()
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`)
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))
  }
  return body
}
