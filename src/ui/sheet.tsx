import { type ReactNode, useEffect, useId, useRef } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { CloseIcon } from './screen-icons.tsx'

/**
 * A short task over the screen (docs/experience.md, "Sheets"): a bottom sheet on a
 * phone, a dialog on a desktop — card settings, limits, filters. The native
 * modal <dialog>, so focus stays inside and the page behind is inert; Escape,
 * the close button and a tap on the dimmed page close it. The heading takes
 * the focus when it opens; the opener gets it back when it closes.
 */
export function Sheet(props: {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  /** Under the content, pinned: the sheet's one primary action. */
  footer?: ReactNode
  testId?: string
}) {
  const { t } = useI18n()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const opener = useRef<Element | null>(null)

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (props.open && !dialog.open) {
      opener.current = document.activeElement
      dialog.showModal()
      dialog.querySelector<HTMLElement>('[data-sheet-title]')?.focus()
    } else if (!props.open && dialog.open) {
      dialog.close()
      if (opener.current instanceof HTMLElement) opener.current.focus()
    }
  }, [props.open])

  return (
    <dialog
      ref={ref}
      className="sheet"
      aria-labelledby={titleId}
      data-testid={props.testId}
      onCancel={(event) => {
        event.preventDefault()
        props.onClose()
      }}
      // A click on the backdrop lands on the dialog itself, outside its box.
      onClick={(event) => {
        if (event.target === event.currentTarget) props.onClose()
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          props.onClose()
        }
      }}
    >
      {props.open && (
        <div className="sheet-body">
          <div className="sheet-header">
            <h2 id={titleId} data-sheet-title tabIndex={-1}>
              {props.title}
            </h2>
            <button
              type="button"
              className="icon-button"
              aria-label={t('sheet.close')}
              onClick={props.onClose}
            >
              <CloseIcon />
            </button>
          </div>
          <div className="sheet-content stack">{props.children}</div>
          {props.footer && <div className="sheet-footer">{props.footer}</div>}
        </div>
      )}
    </dialog>
  )
}
