import { type ChangeEvent, type ComponentProps, useLayoutEffect, useRef } from 'react'
import { TextField } from '../../ui/fields.tsx'
import { caretAfter, electronicIban, groupIban } from './bank-checks.ts'

/**
 * An IBAN typed or pasted in any form and shown grouped in fours, as on a
 * statement. The caret keeps its place among the letters and digits while the
 * spaces move around it, and backspace over a space deletes the character before it.
 */
export function IbanField(
  props: Omit<ComponentProps<typeof TextField>, 'value' | 'onChange' | 'ref'> & {
    value: string
    onChange: (grouped: string) => void
  },
) {
  const { value, onChange, ...field } = props
  const ref = useRef<HTMLInputElement>(null)
  const caret = useRef<number | null>(null)

  useLayoutEffect(() => {
    const input = ref.current
    if (caret.current === null || !input) return
    if (document.activeElement === input) input.setSelectionRange(caret.current, caret.current)
    caret.current = null
  })

  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target
    let compact = electronicIban(input.value)
    let before = electronicIban(
      input.value.slice(0, input.selectionStart ?? input.value.length),
    ).length
    const deleting = (event.nativeEvent as InputEvent).inputType === 'deleteContentBackward'
    if (deleting && compact === electronicIban(value) && before > 0) {
      compact = compact.slice(0, before - 1) + compact.slice(before)
      before -= 1
    }
    const grouped = groupIban(compact)
    caret.current = caretAfter(grouped, before)
    onChange(grouped)
  }

  return (
    <TextField
      {...field}
      ref={ref}
      value={value}
      onChange={change}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      className="cp-mono"
    />
  )
}
