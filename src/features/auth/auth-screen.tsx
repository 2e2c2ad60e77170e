import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'

/** The frame of the sign-in and sign-up screens: title, lead, content, the way to the other one. */
export function AuthScreen(props: {
  id: string
  title: MessageKey
  lead: MessageKey
  other: { question: MessageKey; label: MessageKey; href: string }
  children: ReactNode
}) {
  const { t } = useI18n()
  const titleId = `${props.id}-title`
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h1 id={titleId}>{t(props.title)}</h1>
      <p className="lead">{t(props.lead)}</p>
      {props.children}
      <p className="row muted">
        {t(props.other.question)} <Link href={props.other.href}>{t(props.other.label)}</Link>
      </p>
    </section>
  )
}
