/**
 * The baseline: a bare Node `http` server answering fixed bytes (the body our server answers for the
 * same URL, fetched once at start with the headers of `BARE_SOURCE_HEADERS`, e.g. signed in), with no routing,
 * validation or storage.
 */
import http from 'node:http';

const source = process.env.BARE_SOURCE_URLS?.split(',') ?? [];
// Headers for fetching the sources (`BARE_SOURCE_HEADERS`, JSON), e.g. a signed-in administrator's.
const headers = JSON.parse(process.env.BARE_SOURCE_HEADERS ?? '{}') as Record<string, string>;
const bodies = new Map<string, Buffer>();
for (const url of source) {
  const res = await fetch(url, { headers });
  bodies.set(new URL(url).pathname, Buffer.from(await res.arrayBuffer()));
}
const fallback = Buffer.from('{}');
const server = http.createServer((req, res) => {
  const body = bodies.get((req.url ?? '/').split('?')[0]!) ?? fallback;
  // Drain any request body so POST loads behave like the real server's.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address() as { port: number };
  process.stdout.write(`LISTENING http://127.0.0.1:${addr.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
