import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type PopupButton,
  requestContactWithin,
  type SharedContact,
  TelegramLimitError,
  validatePopup,
  validateSendData,
} from './limits.ts'

const button = (id: string): PopupButton => ({ id, type: 'default', text: id })
const buttons = (n: number) => Array.from({ length: n }, (_, i) => button(`b${i}`))

/** Runs `fn`, expecting a TelegramLimitError; returns it for further checks. */
function limitError(fn: () => unknown): TelegramLimitError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(TelegramLimitError)
    return error as TelegramLimitError
  }
  throw new Error('expected a TelegramLimitError, nothing was thrown')
}

describe('validatePopup', () => {
  it('accepts a title of 64 characters', () => {
    const title = `${'a'.repeat(62)}💸`
    expect(title).toHaveLength(64)
    expect(validatePopup({ title, message: 'm' })).toEqual({ title, message: 'm' })
  })

  it('counts as Telegram does, in UTF-16 units: 63 letters and one emoji are 65', () => {
    const error = limitError(() => validatePopup({ title: `${'a'.repeat(63)}💸`, message: 'm' }))
    expect(error).toMatchObject({ code: 'POPUP_TITLE_TOO_LONG', limit: 64, actual: 65 })
  })

  it('refuses a title of 65 characters and says so, without cutting it', () => {
    const params = { title: 'ж'.repeat(65), message: 'm' }
    const error = limitError(() => validatePopup(params))
    expect(error).toMatchObject({ code: 'POPUP_TITLE_TOO_LONG', limit: 64, actual: 65 })
    expect(error.message).toBe('A popup title has at most 64 characters; this one has 65.')
    expect(params.title).toHaveLength(65)
  })

  it('trims before counting, as Telegram does: 64 characters with spaces around pass', () => {
    expect(validatePopup({ title: `  ${'a'.repeat(64)}  `, message: ' m ' })).toEqual({
      title: 'a'.repeat(64),
      message: 'm',
    })
  })

  it('accepts no title at all', () => {
    expect(() => validatePopup({ message: 'm' })).not.toThrow()
  })

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['only a line break', '\n'],
  ])('refuses a message of 0 characters (%s)', (_, message) => {
    expect(limitError(() => validatePopup({ message }))).toMatchObject({
      code: 'POPUP_MESSAGE_EMPTY',
      actual: 0,
      message: 'A popup needs a message of at least 1 character.',
    })
  })

  it.each([1, 256])('accepts a message of %i characters', (length) => {
    expect(() => validatePopup({ message: 'я'.repeat(length) })).not.toThrow()
  })

  it('refuses a message of 257 characters', () => {
    expect(limitError(() => validatePopup({ message: 'x'.repeat(257) }))).toMatchObject({
      code: 'POPUP_MESSAGE_TOO_LONG',
      limit: 256,
      actual: 257,
      message: 'A popup message has at most 256 characters; this one has 257.',
    })
  })

  it('refuses 200 emoji: 200 characters to a person, 400 to Telegram', () => {
    expect(limitError(() => validatePopup({ message: '💸'.repeat(200) }))).toMatchObject({
      code: 'POPUP_MESSAGE_TOO_LONG',
      actual: 400,
    })
  })

  it.each([0, 1, 3])('accepts %i buttons', (n) => {
    expect(() => validatePopup({ message: 'm', buttons: buttons(n) })).not.toThrow()
  })

  it('refuses 4 buttons', () => {
    expect(limitError(() => validatePopup({ message: 'm', buttons: buttons(4) }))).toMatchObject({
      code: 'POPUP_TOO_MANY_BUTTONS',
      limit: 3,
      actual: 4,
      message: 'A popup has at most 3 buttons; this one has 4.',
    })
  })

  it.each([1, 64])('accepts a button text of %i characters', (length) => {
    const text = 'b'.repeat(length)
    expect(validatePopup({ message: 'm', buttons: [{ id: 'x', text }] }).buttons).toEqual([
      { id: 'x', text },
    ])
  })

  it.each([
    ['default', ''],
    ['destructive', '  '],
  ] as const)('refuses a %s button with no text (%j)', (type, text) => {
    const params = { message: 'm', buttons: [button('ok'), { id: 'x', type, text }] }
    expect(limitError(() => validatePopup(params))).toMatchObject({
      code: 'POPUP_BUTTON_TEXT_EMPTY',
      message: 'Popup button 2 needs a text of at least 1 character.',
    })
  })

  it('refuses a button text of 65 characters', () => {
    const params = { message: 'm', buttons: [{ id: 'x', text: 'b'.repeat(65) }] }
    expect(limitError(() => validatePopup(params))).toMatchObject({
      code: 'POPUP_BUTTON_TEXT_TOO_LONG',
      limit: 64,
      actual: 65,
      message: 'Popup button 1 has a text of at most 64 characters; this one has 65.',
    })
  })

  it('needs no text on Telegram’s own buttons', () => {
    const own = [
      { id: 'a', type: 'ok' },
      { id: 'b', type: 'close' },
      { id: 'c', type: 'cancel' },
    ] as const
    expect(validatePopup({ message: 'm', buttons: [...own] }).buttons).toEqual(own)
  })

  it('accepts a button id of 64 characters and refuses 65', () => {
    expect(() => validatePopup({ message: 'm', buttons: [button('i'.repeat(64))] })).not.toThrow()
    const params = { message: 'm', buttons: [{ id: 'i'.repeat(65), type: 'close' as const }] }
    expect(limitError(() => validatePopup(params))).toMatchObject({
      code: 'POPUP_BUTTON_ID_TOO_LONG',
      limit: 64,
      actual: 65,
    })
  })
})

describe('validateSendData', () => {
  it('refuses empty data', () => {
    expect(limitError(() => validateSendData(''))).toMatchObject({
      code: 'SEND_DATA_EMPTY',
      message: 'Data sent to the bot must not be empty.',
    })
  })

  it('accepts a single byte', () => {
    expect(validateSendData('a')).toBe('a')
  })

  it('accepts exactly 4096 bytes of ASCII', () => {
    expect(() => validateSendData('a'.repeat(4096))).not.toThrow()
  })

  it('refuses 4097 bytes of ASCII', () => {
    expect(limitError(() => validateSendData('a'.repeat(4097)))).toMatchObject({
      code: 'SEND_DATA_TOO_LARGE',
      limit: 4096,
      actual: 4097,
    })
  })

  it('counts UTF-8 bytes: 2048 Cyrillic letters are 4096 bytes and pass', () => {
    const data = 'д'.repeat(2048)
    expect(data).toHaveLength(2048)
    expect(() => validateSendData(data)).not.toThrow()
  })

  it('counts UTF-8 bytes: 2048 Cyrillic letters and one more byte are refused', () => {
    expect(limitError(() => validateSendData(`${'д'.repeat(2048)}a`))).toMatchObject({
      code: 'SEND_DATA_TOO_LARGE',
      actual: 4097,
      message: 'Data sent to the bot is at most 4096 bytes in UTF-8; this is 4097.',
    })
  })

  it('counts a 4-byte emoji as 4 bytes: 1024 pass, 1024 and one byte do not', () => {
    expect(() => validateSendData('💸'.repeat(1024))).not.toThrow()
    expect(limitError(() => validateSendData(`${'💸'.repeat(1024)}.`)).actual).toBe(4097)
  })
})

describe('requestContactWithin', () => {
  const contact: SharedContact = { phone: '+447700900123', firstName: 'Ada' }

  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** A request that answers only when the test says so; records the signal it got. */
  function pendingRequest() {
    const handle = {
      signal: undefined as AbortSignal | undefined,
      share: (_: SharedContact) => {},
      refuse: () => {},
      request: (signal: AbortSignal) =>
        new Promise<SharedContact>((resolve, reject) => {
          handle.signal = signal
          handle.share = resolve
          handle.refuse = () => reject(new Error('ACCESS_DENIED'))
        }),
    }
    return handle
  }

  it('answers shared with the contact when it arrives in time', async () => {
    const pending = pendingRequest()
    const result = requestContactWithin(pending.request)
    await vi.advanceTimersByTimeAsync(4999)
    pending.share(contact)
    await expect(result).resolves.toEqual({ status: 'shared', contact })
    expect(pending.signal!.aborted).toBe(false)
  })

  it('answers refused when the request is turned down', async () => {
    const pending = pendingRequest()
    const result = requestContactWithin(pending.request)
    pending.refuse()
    await expect(result).resolves.toEqual({ status: 'refused' })
  })

  it('is still waiting at 4999 ms and times out at exactly 5000 ms, aborting the request', async () => {
    const pending = pendingRequest()
    let settled: unknown
    void requestContactWithin(pending.request).then((r) => {
      settled = r
    })
    await vi.advanceTimersByTimeAsync(4999)
    expect(settled).toBeUndefined()
    expect(pending.signal!.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toEqual({ status: 'timeout' })
    expect(pending.signal!.aborted).toBe(true)
  })

  it('keeps the timeout when the contact arrives late', async () => {
    const pending = pendingRequest()
    const result = requestContactWithin(pending.request)
    await vi.advanceTimersByTimeAsync(5000)
    pending.share(contact)
    await expect(result).resolves.toEqual({ status: 'timeout' })
  })

  it('takes another timeout when given one', async () => {
    const pending = pendingRequest()
    const result = requestContactWithin(pending.request, 100)
    await vi.advanceTimersByTimeAsync(100)
    await expect(result).resolves.toEqual({ status: 'timeout' })
  })
})
