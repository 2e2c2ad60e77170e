import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useI18n } from '../../i18n/i18n.tsx'
import { SearchIcon } from '../../ui/screen-icons.tsx'

/** Typing settles before the search is sent: one request for a word, not one per key. */
const SEARCH_SETTLE_MS = 300
/** The API's limit on a search (contract ActivityQuery.q). */
const SEARCH_MAX = 100

/** The search field: it searches once typing settles, and at once on Enter. */
export function SearchBox(props: { value: string; onSearch: (q: string | undefined) => void }) {
  const { t } = useI18n()
  const id = useId()
  const [text, setText] = useState(props.value)
  const onSearch = useRef(props.onSearch)
  onSearch.current = props.onSearch
  // What this box last asked for: an address that changes to anything else
  // changed from outside (filters cleared, back), and the box follows it.
  const asked = useRef(props.value)
  if (props.value !== asked.current) {
    asked.current = props.value
    if (props.value !== text.trim()) setText(props.value)
  }

  // Refs only: one function for the box's life.
  const send = useCallback((value: string) => {
    asked.current = value
    onSearch.current(value || undefined)
  }, [])

  useEffect(() => {
    const wanted = text.trim()
    if (wanted === asked.current) return
    const timer = setTimeout(() => send(wanted), SEARCH_SETTLE_MS)
    return () => clearTimeout(timer)
  }, [text, send])

  return (
    <search>
      <form
        className="activity-search"
        onSubmit={(event) => {
          event.preventDefault()
          send(text.trim())
        }}
      >
        <label htmlFor={id} className="visually-hidden">
          {t('activity.search.label')}
        </label>
        <SearchIcon size={20} />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={SEARCH_MAX}
          placeholder={t('activity.search.placeholder')}
          onChange={(event) => setText(event.target.value)}
        />
      </form>
    </search>
  )
}
