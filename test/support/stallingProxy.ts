/**
 * A pass-through HTTP proxy of ours that can hold one chosen request: it never forwards it and never
 * answers, the way a request hangs when the network stalls. Tests use it to stop a real client at a
 * known point (e.g. while it closes a scorecard) and kill it there. Everything else, cookies
 * included, goes through unchanged.
 */
import { createServer, request as forward, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StallingProxy {
  readonly url: string;
  /** Resolves with the held request's path once one is held. */
  readonly held: Promise<string>;
  close(): Promise<void>;
}

/** `hold(method, path)` is asked of each request until it says true once: that request is held, later ones pass. */
export async function startStallingProxy(upstream: string, hold: (method: string, path: string) => boolean): Promise<StallingProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let holding = false;
  let onHeld: (path: string) => void = () => {};
  const held = new Promise<string>((resolve) => (onHeld = resolve));
  const heldResponses: ServerResponse[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!holding && hold(req.method ?? 'GET', req.url ?? '/')) {
      holding = true;
      heldResponses.push(res);
      req.resume(); // read the body and keep quiet
      onHeld(req.url ?? '/');
      return;
    }
    const out = forward(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    close: async () => {
      for (const res of heldResponses) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
