import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityPage } from '../../../contract/activity.ts'
import type { StatementLink } from '../../../contract/statements.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { cardCalls, ok, testCardKeys } from '../cards/card-test-support.ts'
import { pdfLines } from './pdf-lines-test-support.ts'
import { spenderOf } from './statement-fixtures.ts'
import { statementCalls } from './statement-test-support.ts'

describeServer('an activity item’s receipt, downloaded or by link', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp(keys.env)
  })
  afterAll(() => app?.close())

  const { person } = cardCalls(() => app)
  const { get } = statementCalls(() => app)
  const spender = spenderOf(() => app)

  it('an activity item’s receipt is a PDF for its owner; another person’s item is 404', async () => {
    const { token } = await spender()
    const feed = ok<ActivityPage>(await get(token, '/activity?type=card_purchase'))
    const item = feed.data[0]!
    const receipt = await get(
      token,
      `/activity/${item.id}/receipt?language=ru&time_zone=Europe/Berlin`,
    )
    expect(receipt.statusCode, receipt.body).toBe(200)
    expect(receipt.headers['content-type']).toBe('application/pdf')
    expect(receipt.headers['content-disposition']).toBe(
      `attachment; filename="receipt-${item.created_at.slice(0, 10)}-${item.id}.pdf"`,
    )
    expect(receipt.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(receipt.headers['content-language']).toBe('ru')

    // In Persian: right to left, its labels Persian and seen reversed, its reference as written.
    const fa = await get(token, `/activity/${item.id}/receipt?language=fa`)
    expect(fa.headers['content-language']).toBe('fa')
    const lines = pdfLines(fa.rawPayload)
    expect(lines).toContain('تیعضو') // وضعیت, the status
    expect(lines).toContain('یریگیپ ٔهرامش') // شمارهٔ پیگیری, the reference number
    expect(lines).toContain(item.id)
    expectProblem(
      await get(token, `/activity/${item.id}/receipt?time_zone=Mars/Olympus`),
      422,
      'VALIDATION_FAILED',
    )
    const stranger = await person()
    expectProblem(
      await get(stranger.token, `/activity/${item.id}/receipt`),
      404,
      'ACTIVITY_NOT_FOUND',
    )
  })

  it('a receipt’s link downloads it with no sign-in, for its owner’s item only, until it expires', async () => {
    const { token } = await spender()
    const feed = ok<ActivityPage>(await get(token, '/activity?type=card_purchase'))
    const item = feed.data[0]!
    const asked = await app.inject({
      method: 'POST',
      url: `/api/v2/activity/${item.id}/receipt/link?language=ru&time_zone=Europe/Berlin`,
      headers: { ...headers(), ...bearer(token) },
    })
    const link = ok<StatementLink>(asked, 201)
    expect(link.url).toMatch(
      /\/api\/receipts\/[\w-]+\.[\w-]+\?language=ru&time_zone=Europe%2FBerlin$/,
    )
    const { pathname, search } = new URL(link.url)
    const path = pathname + search
    // No tenant, no token: what Telegram's downloadFile sends.
    const file = await app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.31' })
    expect(file.statusCode, file.body).toBe(200)
    expect(file.headers['content-type']).toBe('application/pdf')
    expect(file.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(file.headers['content-disposition']).toContain(`receipt-`)

    const altered = path.replace(/\.(.)/, (_, first: string) => `.${first === 'A' ? 'B' : 'A'}`)
    expectProblem(
      await app.inject({ method: 'GET', url: altered, remoteAddress: '203.0.113.31' }),
      404,
      'ACTIVITY_NOT_FOUND',
    )
    const later = new Date(Date.parse(link.expires_at) + 1000)
    expect(await app.receipts.byLink(pathname.split('/').at(-1)!, {}, later)).toBeUndefined()

    const stranger = await person()
    expectProblem(
      await app.inject({
        method: 'POST',
        url: `/api/v2/activity/${item.id}/receipt/link`,
        headers: { ...headers(), ...bearer(stranger.token) },
      }),
      404,
      'ACTIVITY_NOT_FOUND',
    )
  })
})
