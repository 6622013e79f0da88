/**
 * An HTTP proxy of ours on 127.0.0.1 that passes every request to a server and hands the answer back
 * with its body rewritten by the test (`rewrite(path, body)`): a service that words an answer otherwise
 * than ours, for what no dialect of our server does (a game whose frames and card disagree).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface RewritingProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startRewritingProxy(target: string, rewrite: (path: string, body: string) => string): Promise<RewritingProxy> {
  const server = createServer(async (incoming, outgoing) => {
    try {
      const answer = await request(target + (incoming.url ?? '/'), {
        method: incoming.method as 'GET',
        headers: forwardedHeaders(incoming),
        body: incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : await bodyOf(incoming),
      });
      const body = rewrite(incoming.url ?? '/', await answer.body.text());
      const type = answer.headers['content-type'];
      outgoing.writeHead(answer.statusCode, {
        'content-type': typeof type === 'string' ? type : 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      outgoing.end(body);
    } catch {
      outgoing.destroy();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function forwardedHeaders(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['x-api-key', 'content-type', 'cookie']) {
    const value = incoming.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
