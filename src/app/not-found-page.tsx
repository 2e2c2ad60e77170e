import { useI18n } from '../i18n/i18n.tsx'
import { paths } from '../paths.ts'
import { Missing } from '../ui/load-error.tsx'

/** Any path no route knows: said plainly, with the way home; the address stays as typed. */
export default function NotFoundPage() {
  const { t } = useI18n()
  return <Missing what="page" back={{ href: paths.home, label: t('missing.home') }} />
}
