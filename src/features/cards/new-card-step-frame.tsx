import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { useMainButton } from '../../telegram/controls.tsx'
import type { MainButtonState } from '../../telegram/sdk.ts'

/**
 * A step's frame: the flow's title, the step's own heading, focused when the
 * step opens. In Telegram the MainButton carries the step's primary action
 * (`primary`): it submits the form, so it goes the way the step's own submit
 * button goes — checks, the in-flight latch and all.
 */
export function StepFrame(props: {
  title: string
  focus: boolean
  primary: MainButtonState
  onSubmit: (event: FormEvent) => void
  children: ReactNode
}) {
  const { t } = useI18n()
  const titleId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const form = useRef<HTMLFormElement>(null)
  useMainButton({ ...props.primary, onClick: () => form.current?.requestSubmit() })
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the step opens
  useEffect(() => {
    // A step the person moved to: keyboard and screen-reader users start at its
    // heading. Only on opening: a later render must never take the focus away.
    if (props.focus) heading.current?.focus()
  }, [])
  return (
    <form
      ref={form}
      className="stack"
      aria-labelledby={titleId}
      onSubmit={props.onSubmit}
      noValidate
    >
      <h1>{t('cards.new.title')}</h1>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {props.title}
      </h2>
      {props.children}
    </form>
  )
}
