import { type ReactNode, useEffect, useId, useRef } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { Button } from './components.tsx'

/**
 * A question that must be answered before anything else: the native modal
 * <dialog>, so focus stays inside it and the page behind is inert. Escape
 * cancels, as does the Cancel button, which has focus when it opens (the
 * safe answer first). While the action runs it cannot be dismissed.
 */
export function ConfirmDialog(props: {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  const { t } = useI18n()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (props.open && !dialog.open) {
      dialog.showModal()
      dialog.querySelector<HTMLButtonElement>('[data-cancel]')?.focus()
    } else if (!props.open && dialog.open) {
      dialog.close()
    }
  }, [props.open])

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
      {props.open && (
        <div className="stack">
          <h2 id={titleId}>{props.title}</h2>
          <div id={bodyId} className="stack">
            {props.children}
          </div>
          <div className="row dialog-actions">
            <Button variant="secondary" data-cancel onClick={cancel} disabled={props.busy}>
              {t('action.cancel')}
            </Button>
            <Button className="button-danger" busy={props.busy} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  )
}
