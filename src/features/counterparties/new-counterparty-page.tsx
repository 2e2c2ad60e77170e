import { useId } from 'react'
import { useLocation } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { BackLink } from '../../ui/page-header.tsx'
import { CounterpartyEditor } from './counterparty-editor.tsx'
import './counterparties.css'

/** /wallets/:uuid/counterparties/new — once saved, its page opens to add where to pay them. */
export default function NewCounterpartyPage(props: { uuid: string }) {
  const { t } = useI18n()
  const titleId = useId()
  const [, navigate] = useLocation()
  return (
    <div className="stack">
      <BackLink back={{ href: href.counterparties(props.uuid), label: t('cp.back') }} />
      <section className="card stack" aria-labelledby={titleId}>
        <h1 id={titleId}>{t('cp.newTitle')}</h1>
        <p className="lead">{t('cp.newLead')}</p>
        <CounterpartyEditor
          walletUuid={props.uuid}
          labelledBy={titleId}
          onSaved={(saved) =>
            navigate(href.counterparty(props.uuid, saved.counterparty_account_id), {
              replace: true,
            })
          }
          onCancel={() => navigate(href.counterparties(props.uuid))}
        />
      </section>
    </div>
  )
}
