import type { ComponentType, ReactNode } from 'react'
import { Link } from 'wouter'
import { ChevronRightIcon } from './screen-icons.tsx'

export interface LinkRow {
  key: string
  to: string
  icon: ComponentType<{ size?: number }>
  title: ReactNode
  /** One line under the title on what it is for. */
  explain?: ReactNode
  testId?: string
}

/**
 * Rows that are links, reaching a card's edges: an icon in a circle, a title
 * with its line of explanation, a chevron — the Move money tab, the places
 * under Profile, a wallet's orders and counterparties, home's next steps.
 */
export function LinkList(props: { rows: LinkRow[]; ordered?: boolean; accent?: boolean }) {
  const items = props.rows.map((row) => {
    const Icon = row.icon
    return (
      <li key={row.key} data-testid={row.testId}>
        <Link href={row.to} className="link-row">
          <span
            className={props.accent ? 'link-row-icon link-row-icon-accent' : 'link-row-icon'}
            aria-hidden="true"
          >
            <Icon />
          </span>
          <span className="link-row-text">
            <span className="link-row-title">{row.title}</span>
            {row.explain && <span className="link-row-explain">{row.explain}</span>}
          </span>
          <ChevronRightIcon size={20} />
        </Link>
      </li>
    )
  })
  return props.ordered ? (
    <ol className="link-list">{items}</ol>
  ) : (
    <ul className="link-list">{items}</ul>
  )
}
