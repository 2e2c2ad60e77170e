import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'

export interface Tab<K extends string> {
  id: K
  label: string
  /** The panel's accessible name; says more than the tab, e.g. "Sign in with a password". */
  panelLabel: string
}

/**
 * WAI-ARIA tabs with automatic activation: arrow keys move between tabs and
 * select them, Home and End jump to the ends, and only the selected tab is in
 * the Tab order. Only the selected panel is rendered.
 */
export function Tabs<K extends string>(props: {
  label: string
  tabs: readonly Tab<K>[]
  selected: K
  onSelect: (id: K) => void
  children: ReactNode
}) {
  const { tabs, selected, onSelect } = props
  const base = useId()
  const refs = useRef(new Map<K, HTMLButtonElement>())
  const tabId = (id: K) => `${base}-tab-${id}`
  const panelId = (id: K) => `${base}-panel-${id}`

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === selected)
    const next = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const target = tabs[(next + tabs.length) % tabs.length]!
    onSelect(target.id)
    refs.current.get(target.id)?.focus()
  }

  const current = tabs.find((tab) => tab.id === selected)
  return (
    <div className="tabs">
      <div role="tablist" aria-label={props.label} className="tablist" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element)
              else refs.current.delete(tab.id)
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            className="tab"
            aria-selected={tab.id === selected}
            // Only the selected panel exists: the others have no element to point at.
            aria-controls={tab.id === selected ? panelId(tab.id) : undefined}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={panelId(selected)}
        aria-label={current?.panelLabel}
        className="tabpanel stack"
      >
        {props.children}
      </div>
    </div>
  )
}
