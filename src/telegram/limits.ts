/**
 * docs/product.md §5 and §9: the limits of what a Mini App may ask of Telegram,
 * checked before the SDK is called. A value over a limit is refused with a
 * typed error that says which limit and by how much — never cut to fit.
 * Pure: no SDK, no DOM.
 */

/*
 * Popup text is counted as Telegram and the SDK count it (@telegram-apps/sdk
 * `popup.open`): trimmed first, then in UTF-16 code units (`String.length`) —
 * so an emoji such as 💸 counts as two. Whatever passes here the SDK accepts.
 */
export const POPUP_TITLE_MAX_CHARS = 64
export const POPUP_MESSAGE_MIN_CHARS = 1
export const POPUP_MESSAGE_MAX_CHARS = 256
export const POPUP_BUTTONS_MAX = 3
export const POPUP_BUTTON_TEXT_MIN_CHARS = 1
export const POPUP_BUTTON_TEXT_MAX_CHARS = 64
export const POPUP_BUTTON_ID_MAX_CHARS = 64
export const SEND_DATA_MAX_BYTES = 4096
export const CONTACT_REQUEST_TIMEOUT_MS = 5000

export type TelegramLimitCode =
  | 'POPUP_TITLE_TOO_LONG'
  | 'POPUP_MESSAGE_EMPTY'
  | 'POPUP_MESSAGE_TOO_LONG'
  | 'POPUP_TOO_MANY_BUTTONS'
  | 'POPUP_BUTTON_TEXT_EMPTY'
  | 'POPUP_BUTTON_TEXT_TOO_LONG'
  | 'POPUP_BUTTON_ID_TOO_LONG'
  | 'SEND_DATA_EMPTY'
  | 'SEND_DATA_TOO_LARGE'

/** A value over one of the Mini App limits; `actual` and `limit` are in the limit's unit. */
export class TelegramLimitError extends Error {
  constructor(
    readonly code: TelegramLimitCode,
    readonly limit: number,
    readonly actual: number,
    message: string,
  ) {
    super(message)
    this.name = 'TelegramLimitError'
  }
}

/** `default` and `destructive` buttons carry their own text. */
export interface TextPopupButton {
  id: string
  type?: 'default' | 'destructive'
  text: string
}

/** Telegram's own buttons, in the person's language. */
export interface OwnPopupButton {
  id: string
  type: 'ok' | 'close' | 'cancel'
}

export type PopupButton = TextPopupButton | OwnPopupButton

export const isOwnButton = (button: PopupButton): button is OwnPopupButton =>
  button.type === 'ok' || button.type === 'close' || button.type === 'cancel'

export interface PopupParams {
  title?: string
  message: string
  buttons?: PopupButton[]
}

/**
 * The popup as it will be shown (title, message and button texts trimmed, as
 * the SDK trims them), or a TelegramLimitError saying which limit it breaks.
 * @throws TelegramLimitError when the title, the message, the number of buttons, or a button's text or id is out of bounds
 */
export function validatePopup(params: PopupParams): PopupParams {
  const title = params.title?.trim()
  if (title !== undefined && title.length > POPUP_TITLE_MAX_CHARS) {
    throw new TelegramLimitError(
      'POPUP_TITLE_TOO_LONG',
      POPUP_TITLE_MAX_CHARS,
      title.length,
      `A popup title has at most ${POPUP_TITLE_MAX_CHARS} characters; this one has ${title.length}.`,
    )
  }
  const message = params.message.trim()
  if (message.length < POPUP_MESSAGE_MIN_CHARS) {
    throw new TelegramLimitError(
      'POPUP_MESSAGE_EMPTY',
      POPUP_MESSAGE_MIN_CHARS,
      message.length,
      'A popup needs a message of at least 1 character.',
    )
  }
  if (message.length > POPUP_MESSAGE_MAX_CHARS) {
    throw new TelegramLimitError(
      'POPUP_MESSAGE_TOO_LONG',
      POPUP_MESSAGE_MAX_CHARS,
      message.length,
      `A popup message has at most ${POPUP_MESSAGE_MAX_CHARS} characters; this one has ${message.length}.`,
    )
  }
  const count = params.buttons?.length ?? 0
  if (count > POPUP_BUTTONS_MAX) {
    throw new TelegramLimitError(
      'POPUP_TOO_MANY_BUTTONS',
      POPUP_BUTTONS_MAX,
      count,
      `A popup has at most ${POPUP_BUTTONS_MAX} buttons; this one has ${count}.`,
    )
  }
  const buttons = params.buttons?.map(validateButton)
  return {
    ...(title !== undefined && { title }),
    message,
    ...(buttons !== undefined && { buttons }),
  }
}

function validateButton(button: PopupButton, index: number): PopupButton {
  const which = `Popup button ${index + 1}`
  if (button.id.length > POPUP_BUTTON_ID_MAX_CHARS) {
    throw new TelegramLimitError(
      'POPUP_BUTTON_ID_TOO_LONG',
      POPUP_BUTTON_ID_MAX_CHARS,
      button.id.length,
      `${which} has an id of at most ${POPUP_BUTTON_ID_MAX_CHARS} characters; this one has ${button.id.length}.`,
    )
  }
  if (isOwnButton(button)) return button
  const text = button.text.trim()
  if (text.length < POPUP_BUTTON_TEXT_MIN_CHARS) {
    throw new TelegramLimitError(
      'POPUP_BUTTON_TEXT_EMPTY',
      POPUP_BUTTON_TEXT_MIN_CHARS,
      text.length,
      `${which} needs a text of at least 1 character.`,
    )
  }
  if (text.length > POPUP_BUTTON_TEXT_MAX_CHARS) {
    throw new TelegramLimitError(
      'POPUP_BUTTON_TEXT_TOO_LONG',
      POPUP_BUTTON_TEXT_MAX_CHARS,
      text.length,
      `${which} has a text of at most ${POPUP_BUTTON_TEXT_MAX_CHARS} characters; this one has ${text.length}.`,
    )
  }
  return { ...button, text }
}

/** The size Telegram counts: UTF-8 bytes, not characters. */
export const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

/** @throws TelegramLimitError when `data` is empty or over 4096 UTF-8 bytes */
export function validateSendData(data: string): string {
  const bytes = utf8Bytes(data)
  if (bytes === 0) {
    throw new TelegramLimitError('SEND_DATA_EMPTY', 1, 0, 'Data sent to the bot must not be empty.')
  }
  if (bytes > SEND_DATA_MAX_BYTES) {
    throw new TelegramLimitError(
      'SEND_DATA_TOO_LARGE',
      SEND_DATA_MAX_BYTES,
      bytes,
      `Data sent to the bot is at most ${SEND_DATA_MAX_BYTES} bytes in UTF-8; this is ${bytes}.`,
    )
  }
  return data
}

export interface SharedContact {
  phone: string
  firstName: string
  lastName?: string
}

/** How a contact request ended: shared, refused by the person (or Telegram), or no answer in time. */
export type ContactResult =
  | { status: 'shared'; contact: SharedContact }
  | { status: 'refused' }
  | { status: 'timeout' }

/**
 * Runs `request` (the SDK's contact request) for at most `timeoutMs`. When
 * the time is up it aborts the request and answers `timeout`; a rejection is
 * `refused`. Whichever comes first decides: a late answer changes nothing.
 */
export function requestContactWithin(
  request: (signal: AbortSignal) => Promise<SharedContact>,
  timeoutMs: number = CONTACT_REQUEST_TIMEOUT_MS,
): Promise<ContactResult> {
  const controller = new AbortController()
  return new Promise<ContactResult>((resolve) => {
    const timer = setTimeout(() => {
      resolve({ status: 'timeout' })
      controller.abort(new DOMException('The contact request timed out', 'TimeoutError'))
    }, timeoutMs)
    request(controller.signal).then(
      (contact) => {
        clearTimeout(timer)
        resolve({ status: 'shared', contact })
      },
      () => {
        clearTimeout(timer)
        resolve({ status: 'refused' })
      },
    )
  })
}
