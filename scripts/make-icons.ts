/**
 * Renders public/icons/icon.svg to the PNG icons the manifest lists, in
 * Debian's Chromium. Run after changing the logo: `npx tsx scripts/make-icons.ts`.
 * The maskable icon keeps the logo inside the 80 % safe zone on a full bleed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { PNG } from 'pngjs'

const svg = readFileSync('public/icons/icon.svg', 'utf8')
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking'],
})
const page = await browser.newPage()

async function render(file: string, size: number, maskable: boolean) {
  await page.setViewportSize({ width: size, height: size })
  const inner = maskable ? Math.round(size * 0.8) : size
  const svgData = Buffer.from(svg).toString('base64')
  await page.setContent(
    `<html><body style="margin:0;background:${maskable ? '#0b1020' : 'transparent'};display:grid;place-items:center;width:${size}px;height:${size}px">
      <img src="data:image/svg+xml;base64,${svgData}" width="${inner}" height="${inner}"></body></html>`,
  )
  const shot = await page.screenshot({ omitBackground: !maskable })
  writeFileSync(`public/icons/${file}`, smallest(PNG.sync.read(shot)))
}

/**
 * The same pixels, written again at the strongest deflate with each PNG row
 * filter, and the smallest kept: Chromium's encoder favours speed, and the
 * browser downloads the 192 px icon on a first visit (its install check) —
 * 12.6 KB from Chromium, 7.9 KB here.
 */
function smallest(image: PNG): Buffer {
  const written = [0, 1, 2, 3, 4, -1].flatMap((filterType) =>
    // zlib's default and its FILTERED strategy: which wins depends on the picture.
    [0, 1].map((deflateStrategy) =>
      PNG.sync.write(image, { deflateLevel: 9, deflateStrategy, filterType }),
    ),
  )
  return written.reduce((best, next) => (next.length < best.length ? next : best))
}

// The favicon for browsers that take no SVG one (index.html names icon.svg first).
await render('icon-32.png', 32, false)
await render('icon-192.png', 192, false)
await render('icon-512.png', 512, false)
await render('icon-maskable-512.png', 512, true)
await browser.close()
