import type { ReactNode, Ref } from 'react'
import { Link } from 'wouter'
import { useMiniApp } from '../telegram/mini-app.tsx'
import type { Back } from './load-error.tsx'
import { ChevronLeftIcon } from './screen-icons.tsx'

/**
 * A screen's title with its way back: an arrow before the heading, named by
 * where it goes. Inside Telegram the chat's BackButton does that job
 * (src/telegram/mini-app.tsx), so the arrow is not drawn there — unless the
 * SDK could not start, and there is no BackButton. `actions` sit
 * at the end of the line (one or two buttons or links).
 */
export function PageHeader(props: {
  title: ReactNode
  id?: string
  back?: Back
  lead?: ReactNode
  actions?: ReactNode
  headingRef?: Ref<HTMLHeadingElement>
}) {
  // Telegram's BackButton stands in for the arrow, wherever the SDK gave us one.
  const telegramBack = useMiniApp() !== undefined
  const back = props.back && !telegramBack ? props.back : undefined
  return (
    <div className="page-header">
      <div className="page-header-line">
        <div className="page-header-title">
          {back && (
            <Link href={back.href} className="icon-button back-link" aria-label={back.label}>
              <ChevronLeftIcon />
            </Link>
          )}
          <h1 id={props.id} ref={props.headingRef} tabIndex={props.headingRef ? -1 : undefined}>
            {props.title}
          </h1>
        </div>
        {props.actions && <div className="page-header-actions">{props.actions}</div>}
      </div>
      {props.lead && <p className="lead">{props.lead}</p>}
    </div>
  )
}

/**
 * The way back on its own, for a screen whose heading sits further down (in
 * a card with its own actions): an arrow and where it goes. Not drawn inside
 * Telegram, whose BackButton does it.
 */
export function BackLink(props: { back: Back }) {
  if (useMiniApp() !== undefined) return null
  return (
    <Link href={props.back.href} className="back-text-link">
      <ChevronLeftIcon size={20} />
      {props.back.label}
    </Link>
  )
}
