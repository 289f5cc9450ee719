/** Serves a Hono app on a real node:http socket and hands back its URL and a close function. */
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import type { Env } from './control.js';

export interface Listening {
  /** Origin the server listens on, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  close(): Promise<void>;
}

export function listen(app: Hono<Env>, port = 0, hostname = '127.0.0.1'): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        origin: `http://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            // Keep-alive sockets from clients would hold close() open; end them.
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
