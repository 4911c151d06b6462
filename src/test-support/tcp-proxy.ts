/**
 * @module test-support/tcp-proxy
 * A TCP proxy in front of a server (PostgreSQL) that a test can cut and restore: `cut()` drops every
 * connection at once and refuses new ones, as a database server that crashed or restarts looks to
 * its clients; `restore()` accepts again on the same port. The real server is never touched.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections passed through so far. */
  readonly connections: number;
  /** Local ports of the open connections to the server (PostgreSQL's `client_port` of each backend). */
  upstreamPorts(): number[];
  /** Drops every open connection and stops accepting (clients get ECONNREFUSED). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(targetPort, targetHost);
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const s of open) s.destroy();
    await closed;
  };
  return {
    port,
    get connections() {
      return connections;
    },
    upstreamPorts: () => [...upstreams].map((s) => s.localPort).filter((p): p is number => typeof p === 'number'),
    cut,
    restore: () => listen(port),
    close: cut,
  };
}
