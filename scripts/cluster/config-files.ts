/**
 * The configuration files the cluster writes into its directory: PostgreSQL's settings,
 * pgbouncer.ini and haproxy.cfg. docs/deploy.md explains every setting, verbatim.
 */
import { join } from 'node:path'
import type { ApiNode } from './processes.ts'

/** The application's database, on the primary and (replicated) on the replica. */
export const DATABASE = 'finplatform'
/** PgBouncer's name for the replica's copy of it. */
export const REPLICA_DATABASE = 'finplatform_replica'

/**
 * Appended to the primary's postgresql.conf; pg_basebackup copies it to the replica.
 * Durable as in production (fsync, synchronous_commit on); replication is asynchronous.
 */
export const POSTGRES_SETTINGS = `
# --- finplatform cluster (scripts/cluster/config-files.ts, docs/deploy.md) ---
listen_addresses = '127.0.0.1'
# PgBouncer holds at most 2 x (default_pool_size + reserve_pool_size) server connections.
max_connections = 100
wal_level = replica
max_wal_senders = 5
# A replica that falls behind for a moment still finds the WAL it needs.
wal_keep_size = '256MB'
hot_standby = on
# On the replica: vacuum on the primary keeps rows a long read (a CSV export) still needs.
hot_standby_feedback = on
`

export function pgbouncerSettings(dir: string, port: number, primary: number, replica: number) {
  return `;; finplatform cluster (scripts/cluster/config-files.ts, docs/deploy.md)
[databases]
${DATABASE} = host=127.0.0.1 port=${primary} dbname=${DATABASE}
${REPLICA_DATABASE} = host=127.0.0.1 port=${replica} dbname=${DATABASE}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
admin_users = postgres
; A server connection serves one transaction, then the next client's.
pool_mode = transaction
; Every node opens up to 10 (node-postgres' pool); room for 40 nodes.
max_client_conn = 400
; Server connections per database: about what the primary's cores can keep busy.
default_pool_size = 20
reserve_pool_size = 5
reserve_pool_timeout = 3
; A client waits this long for a server connection before its query fails.
query_wait_timeout = 30
server_idle_timeout = 60
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
`
}

export function haproxySettings(host: string, port: number, socket: string, nodes: ApiNode[]) {
  return `# finplatform cluster (scripts/cluster/config-files.ts, docs/deploy.md)
global
  maxconn 4096
  # A soft stop waits for requests in hand; idle keep-alive clients do not hold it longer.
  hard-stop-after 10s
  stats socket ${socket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout http-keep-alive 10s
  # A request a node refused to connect for (it died, before the check noticed) goes to
  # another node; so does one it answered 503 while shutting down (Fastify's answer to new
  # requests once close() began: nothing was done). Never an answer cut off mid-way: the
  # client retries that itself, under its idempotency key.
  retries 3
  option redispatch 1
  retry-on conn-failure 503

frontend api
  bind ${host}:${port}
  option forwardfor
  default_backend nodes

backend nodes
  # Long answers (CSV exports) must not pile up on one node.
  balance leastconn
  option httpchk
  http-check send meth GET uri /readyz
  http-check expect status 200
  # Down after 2 failed checks a second apart, back after 2 good ones.
  default-server inter 1s fall 2 rise 2
${nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} check`).join('\n')}
`
}
