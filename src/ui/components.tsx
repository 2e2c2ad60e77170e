import type { ButtonHTMLAttributes, ReactNode } from 'react'

/**
 * The one button hierarchy: primary (one per screen), secondary, danger
 * (destructive, always behind a confirmation), quiet (text only).
 */
export type Variant = 'primary' | 'secondary' | 'danger' | 'quiet'

/** The classes of a button, for a link that looks like one. */
export const buttonClass = (variant: Variant = 'primary', block = false) =>
  ['button', `button-${variant}`, block && 'button-block'].filter(Boolean).join(' ')

export function Button({
  variant = 'primary',
  block = false,
  busy = false,
  className,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant
  block?: boolean
  busy?: boolean
}) {
  return (
    <button
      type="button"
      {...rest}
      className={[buttonClass(variant, block), className].filter(Boolean).join(' ')}
      disabled={rest.disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  )
}

/** A success or progress note, announced politely. */
export function Notice(props: { children: ReactNode }) {
  return (
    <p className="alert alert-success" role="status">
      {props.children}
    </p>
  )
}

export function Alert(props: { tone?: 'error' | 'warning'; children: ReactNode }) {
  const tone = props.tone ?? 'error'
  return (
    <p className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  )
}

export function Spinner(props: { label: string }) {
  return (
    <div className="center" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{props.label}</span>
    </div>
  )
}

/**
 * What loads, in the shape it will have: grey blocks where lines, rows or a
 * card will be, so nothing jumps when the data arrives. Announced once as
 * "Loading…"; the blocks themselves are hidden from assistive technology.
 */
export function Skeleton(props: {
  label: string
  /** `rows`: a list (icon, two lines, an amount); `lines`: a block of text; `card`: a card-sized panel. */
  shape?: 'rows' | 'lines' | 'card' | 'page'
  count?: number
}) {
  const shape = props.shape ?? 'lines'
  const count = props.count ?? 3
  const items = Array.from({ length: count }, (_, index) => index)
  return (
    <div className={`skeleton skeleton-${shape}`} role="status" aria-label={props.label}>
      {shape === 'rows' &&
        items.map((index) => (
          <div key={index} className="skeleton-row" aria-hidden="true">
            <span className="skeleton-block skeleton-avatar" />
            <span className="skeleton-row-text">
              <span className="skeleton-block skeleton-line" />
              <span className="skeleton-block skeleton-line skeleton-line-short" />
            </span>
            <span className="skeleton-block skeleton-amount" />
          </div>
        ))}
      {shape === 'lines' &&
        items.map((index) => (
          <span key={index} className="skeleton-block skeleton-line" aria-hidden="true" />
        ))}
      {shape === 'card' && <span className="skeleton-block skeleton-panel" aria-hidden="true" />}
      {shape === 'page' && (
        <>
          <span className="skeleton-block skeleton-title" aria-hidden="true" />
          <span className="skeleton-block skeleton-panel" aria-hidden="true" />
          <span className="skeleton-block skeleton-panel skeleton-panel-low" aria-hidden="true" />
        </>
      )}
    </div>
  )
}

export function Card(props: { children: ReactNode; labelledBy?: string }) {
  return (
    <section className="card stack" aria-labelledby={props.labelledBy}>
      {props.children}
    </section>
  )
}
