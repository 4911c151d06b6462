/**
 * @module test-support/connection-owner
 * Which process of a cluster serves a given TCP connection (Linux: `/proc/net/tcp` and the processes'
 * open descriptors), for tests that must know a request reached one particular worker. And requests
 * over one kept-alive connection (`node:http`), whose local port names that connection.
 */
import fs from 'node:fs';
import http from 'node:http';

/** The pid among `pids` holding the server end of the loopback connection from `clientPort` to `serverPort`. */
export function serverPidOf(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hexPort = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');
  const lines = fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1);
  const row = lines.map((l) => l.trim().split(/\s+/)).find((f) => f[1]?.endsWith(`:${hexPort(serverPort)}`) && f[2]?.endsWith(`:${hexPort(clientPort)}`));
  const inode = row?.[9];
  if (!inode || inode === '0') return undefined;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** One kept-alive connection: every request goes over the same socket. */
export class Connection {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  localPort: number | undefined;
  constructor(readonly base: string) {}

  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(`${this.base}${path}`, { method, agent: this.#agent, headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {} }, (res) => {
        this.localPort = res.socket.localPort;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 30 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
