import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { useMiniApp } from '../telegram/mini-app.tsx'
import { Button } from './components.tsx'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  /**
   * The question's text, plain: one paragraph a line in the <dialog>, and
   * what Telegram's popup shows. Without it (a body with fields, say) the
   * <dialog> asks in Telegram too.
   */
  message?: string
  /** Shown after the message, in the <dialog> only: fields, and the action's error. */
  children?: ReactNode
  confirmLabel: string
  /**
   * A third answer between Cancel and the confirmation ("only sign out"
   * beside "sign out and remove"). Asked in the <dialog> only: give no
   * `message` with it, so Telegram's two-button popup never stands in.
   */
  alternative?: { label: string; onChoose: () => void }
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}

/**
 * A question that must be answered before anything else: the native modal
 * <dialog>, so focus stays inside it and the page behind is inert. Escape
 * cancels, as does the Cancel button, which has focus when it opens (the
 * safe answer first). While the action runs it cannot be dismissed, and says
 * so in words. Opened already running (Telegram's popup answered yes), both
 * buttons are disabled: the heading holds focus, and Cancel gets it back when
 * the action ends with the question still open (it failed).
 *
 * In the Telegram Mini App a question with a `message` is asked with
 * Telegram's own popup instead (see useTelegramPopup).
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useI18n()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()
  const busyId = useId()
  const popupAsks = useTelegramPopup(props)
  const open = props.open && !popupAsks

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      const cancel = dialog.querySelector<HTMLButtonElement>('[data-cancel]')
      if (cancel && !cancel.disabled) cancel.focus()
      else dialog.querySelector<HTMLElement>('[data-title]')?.focus()
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])

  // The action ended and the question is still open: unless the person is on
  // a control of the dialog, focus goes back to Cancel (the buttons were disabled).
  const wasBusy = useRef(props.busy)
  useEffect(() => {
    const ended = wasBusy.current && !props.busy
    wasBusy.current = props.busy
    const dialog = ref.current
    if (!ended || !open || !dialog?.open) return
    const active = document.activeElement
    const onControl =
      active instanceof HTMLElement &&
      active !== dialog &&
      dialog.contains(active) &&
      !active.hasAttribute('data-title') &&
      !(active as HTMLButtonElement).disabled
    if (!onControl) dialog.querySelector<HTMLButtonElement>('[data-cancel]')?.focus()
  }, [props.busy, open])

  const cancel = () => {
    if (!props.busy) props.onCancel()
  }

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // The browser closes a dialog on Escape by itself; the page decides instead, so it stays in step.
      onCancel={(event) => {
        event.preventDefault()
        cancel()
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        event.preventDefault()
        cancel()
      }}
    >
      {open && (
        <div className="stack">
          <h2
            id={titleId}
            data-title
            tabIndex={-1}
            aria-describedby={props.busy ? busyId : undefined}
          >
            {props.title}
          </h2>
          <div id={bodyId} className="stack">
            {props.message
              ?.split('\n')
              .filter((line) => line.trim() !== '')
              // A line is its own key: a question does not say the same thing twice.
              .map((line) => (
                <p key={line}>{line}</p>
              ))}
            {props.children}
          </div>
          <p id={busyId} role="status" className="visually-hidden">
            {props.busy ? t('confirm.busy') : null}
          </p>
          <div className="row dialog-actions">
            <Button variant="secondary" data-cancel onClick={cancel} disabled={props.busy}>
              {t('action.cancel')}
            </Button>
            {props.alternative && (
              <Button
                variant="secondary"
                onClick={props.alternative.onChoose}
                disabled={props.busy}
              >
                {props.alternative.label}
              </Button>
            )}
            <Button variant="danger" busy={props.busy} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  )
}

/** The popup button that confirms; any other answer, or the popup closed, cancels. */
const CONFIRM = 'confirm'

/**
 * In Telegram, asks the question with Telegram's popup: the same title and
 * message, the confirm label as a destructive button, and Telegram's own
 * Cancel. Returns whether the popup has the question, so the <dialog> stays
 * closed meanwhile. The <dialog> takes over once the popup is answered yes —
 * it shows the action running (`busy`) and the action's error, as on the web
 * — and whenever the popup cannot ask: no `message`, a title or message over
 * Telegram's limits (refused whole, never cut: src/telegram/limits.ts), or a
 * client without popups. Outside Telegram it does nothing and loads nothing.
 */
function useTelegramPopup(props: ConfirmDialogProps): boolean {
  const controls = useMiniApp()
  const latest = useRef(props)
  latest.current = props
  const mounted = useRef(false)
  // One popup per opening: StrictMode runs the effect twice, and a second
  // popup while one is shown is refused by Telegram.
  const asked = useRef(false)
  const opening = useRef(0)
  const [answered, setAnswered] = useState(false)

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  useEffect(() => {
    if (!props.open) {
      asked.current = false
      opening.current += 1
      setAnswered(false)
      return
    }
    const { title, message, confirmLabel } = latest.current
    if (!controls || message === undefined || asked.current) return
    asked.current = true
    const mine = opening.current
    // An answer for a question the page has closed since, or a page that is gone, changes nothing.
    const current = () => mounted.current && opening.current === mine
    controls
      .popup({
        title,
        message,
        buttons: [
          { id: CONFIRM, type: 'destructive', text: confirmLabel },
          { id: 'cancel', type: 'cancel' },
        ],
      })
      .then(
        (pressed) => {
          if (!current()) return
          setAnswered(true)
          if (pressed === CONFIRM) latest.current.onConfirm()
          else latest.current.onCancel()
        },
        (error: unknown) => {
          if (!current()) return
          console.warn('[telegram] the popup cannot ask this; the dialog does', error)
          setAnswered(true)
        },
      )
  }, [props.open, controls])

  return props.open && controls !== undefined && props.message !== undefined && !answered
}
