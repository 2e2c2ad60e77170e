import { type Language, languageOfTag } from '../../contract/languages.ts'

/**
 * The language to answer in, from an Accept-Language header (RFC 9110 §12.5.4):
 * the first by q-value that is one of ours (contract/languages.ts), a region
 * falling back to its language ("ru-RU" is ru, "pt" Brazil's Portuguese);
 * English when none is. Only those ten can come out, so no header can make
 * the server build and keep anything for another (the country lists, the
 * problem words).
 */
export function acceptedLanguage(header: string | undefined): Language {
  const wanted = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index }
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of wanted) {
    const known = languageOfTag(tag)
    if (known) return known
  }
  return 'en'
}
