import type { MyProof } from '../../../contract/proofs.ts'
import { accountName } from '../../i18n/account-names.ts'
import { formatLocale } from '../../i18n/digits.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney, isFiat } from '../../i18n/money.ts'
import { walletName } from '../../i18n/wallet-names.ts'
import { FieldList } from '../../ui/field-list.tsx'

/*
 * What the proof screen shows beside the check: the person's balances as the
 * leaf holds them, the reserves' cover, and the technical details.
 */

/** Money as people count it: fiat first, then crypto, each in code order. */
export const moneyFirst = <T extends { currency: string }>(balances: readonly T[]) =>
  [...balances].sort((a, b) => Number(isFiat(b)) - Number(isFiat(a)))

/** What the leaf is made of: each wallet and fiat account, with what it held in each currency. */
export function Balances(props: { proof: MyProof }) {
  const { t, language } = useI18n()
  const places = new Map<string, { wallet: boolean; name: string; amounts: string[] }>()
  for (const balance of moneyFirst(props.proof.balances_at_snapshot)) {
    for (const part of balance.parts) {
      const place = places.get(part.id) ?? {
        wallet: part.source === 'wallet',
        name: part.wallet_type
          ? walletName(t, { type: part.wallet_type })
          : // A proof's part names no card, so a card's own account reads by its program here.
            accountName(t, {
              program_name: part.program_name ?? '',
              account_last4: part.account_last4 ?? '',
              stand_alone: false,
            }),
        amounts: [],
      }
      place.amounts.push(formatMoney(language, { amount: part.amount, currency: balance.currency }))
      places.set(part.id, place)
    }
  }
  return (
    <section className="card stack" aria-labelledby="proofs-balances">
      <div className="stack proof-section-head">
        <h2 id="proofs-balances">{t('profile.proofs.balances')}</h2>
        <p className="muted">
          {t('profile.proofs.balancesLead', {
            time: formatDateTime(language, props.proof.root.taken_at),
          })}
        </p>
      </div>
      {places.size === 0 ? (
        <p>{t('profile.proofs.noBalances')}</p>
      ) : (
        <ul className="proof-rows">
          {/* Wallets first, then the fiat accounts (the cards' money). */}
          {[...places]
            .sort(([, a], [, b]) => Number(b.wallet) - Number(a.wallet))
            .map(([id, place]) => (
              <li key={id} className="proof-row">
                <span className="proof-row-name proof-row-title">{place.name}</span>
                <span className="proof-row-amount tabular">
                  {place.amounts.map((amount) => (
                    <span key={amount}>{amount}</span>
                  ))}
                </span>
              </li>
            ))}
        </ul>
      )}
    </section>
  )
}

/** What the custodian attests the platform holds, against what everyone holds, per currency. */
export function Reserves(props: { proof: MyProof }) {
  const { t, language } = useI18n()
  const reserves = props.proof.root.reserves
  const lines = reserves?.currencies.filter((line) => line.ratio !== null) ?? []
  const percent = new Intl.NumberFormat(formatLocale(language), {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
  return (
    <section className="card stack" aria-labelledby="proofs-reserves">
      <div className="stack proof-section-head">
        <h2 id="proofs-reserves">{t('profile.proofs.reserves')}</h2>
        <p className="muted">
          {reserves
            ? t('profile.proofs.reservesLead', { custodian: reserves.attested_by })
            : t('profile.proofs.noReserves')}
        </p>
      </div>
      {lines.length > 0 && (
        <ul className="proof-rows">
          {lines.map((line) => (
            <li key={line.currency} className="proof-reserve">
              <span className="proof-row-title">{line.currency}</span>
              <span className="proof-row-title tabular">
                {t('profile.proofs.cover', {
                  ratio: percent.format(line.ratio as Intl.StringNumericLiteral),
                })}
              </span>
              <span className="muted proof-reserve-detail">
                {t('profile.proofs.holds', {
                  assets: formatMoney(language, { amount: line.assets, currency: line.currency }),
                  liabilities: formatMoney(language, {
                    amount: line.liabilities,
                    currency: line.currency,
                  }),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The root and the person's place in it, for whoever checks by hand (docs/api.md). */
export function Technical(props: { proof: MyProof; language: Language }) {
  const { t } = useI18n()
  const { root, path } = props.proof
  return (
    <details className="card technical">
      <summary>
        <h2>{t('profile.proofs.technical')}</h2>
      </summary>
      <FieldList
        rows={[
          [t('profile.proofs.snapshot'), <code key="id">{root.snapshot_id}</code>],
          [t('profile.proofs.takenAt'), formatDateTime(props.language, root.taken_at)],
          [t('profile.proofs.leafCount'), String(root.leaf_count)],
          [t('profile.proofs.pathLength'), String(path.length)],
          [
            t('profile.proofs.rootHash'),
            <code key="hash" className="address-text">
              {root.hash}
            </code>,
          ],
          [
            t('profile.proofs.signature'),
            <code key="signature" className="address-text">
              {root.signature}
            </code>,
          ],
        ]}
      />
    </details>
  )
}
