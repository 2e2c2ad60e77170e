// The yardstick of the reads rows: a bare Fastify route, no plugins, no
// logging, in a process of its own (the bench's lib.ts startBare).
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/bare', async () => ({ ok: true }))
app.get('/healthz', async () => ({ status: 'ok' }))
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.close())
