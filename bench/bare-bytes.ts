/**
 * The cached-throughput floor: a bare node:http server that answers every request with the bytes
 * the parent gives it (`set-answer`: the body and content type a cached gateway answer had), after
 * reading the request body, in its own process. Nothing is faster at serving the same answer over
 * the same HTTP, so the response cache is measured against it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, serveParent } from './ipc.js';

let body = Buffer.from('{"data":null}');
let contentType = 'application/json';

const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.once('end', () => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
serveParent({
  'set-answer': (payload) => {
    const answer = payload as { body: string; contentType: string };
    body = Buffer.from(answer.body);
    contentType = answer.contentType;
    return body.length;
  },
});
server.listen(0, '127.0.0.1', () => {
  announceReady(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
