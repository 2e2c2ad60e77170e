/**
 * Renders public/icons/icon.svg to the PNG icons the manifest lists, in
 * Debian's Chromium. Run after changing the logo: `npx tsx scripts/make-icons.ts`.
 * The maskable icon keeps the logo inside the 80 % safe zone on a full bleed.
 */
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'

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
  await page.screenshot({ path: `public/icons/${file}`, omitBackground: !maskable })
}

await render('icon-192.png', 192, false)
await render('icon-512.png', 512, false)
await render('icon-maskable-512.png', 512, true)
await browser.close()
