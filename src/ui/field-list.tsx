import type { ReactNode } from 'react'

/**
 * Facts as label → value rows (`.fields` in ui.css): a record's details, or a
 * review before confirming. A label is its row's key: a list names each fact once.
 */
export function FieldList(props: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="fields">
      {props.rows.map(([label, value]) => (
        <div key={label} className="field-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
