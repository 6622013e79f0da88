/**
 * A pass-through HTTP proxy of ours that keeps the game service's action log as the service saw it:
 * every command (RESET, ACTION1..7) that reached the service and what it answered, session by session.
 * It can also hold one chosen command, once: `request` never forwards it (the service never sees it),
 * `answer` forwards it and keeps the service's answer back (the service counted it; the client never
 * hears). Tests kill a client while a command is held. Everything else (cookies included) passes unchanged.
 */
import { Agent, createServer, type IncomingMessage, request as forward, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedCommand {
  /** `RESET`, `ACTION1` … `ACTION7`. */
  readonly command: string;
  /** The session: the request's guid, or for a first RESET the guid the service answered with. */
  readonly guid: string;
  readonly x?: number;
  readonly y?: number;
  readonly status: number;
}

export type HoldPlan = (command: string, guid: string | undefined, index: number) => 'request' | 'answer' | undefined;

export interface ActionLogProxy {
  readonly url: string;
  /** Commands the service answered 200, in the order it answered them. */
  readonly log: LoggedCommand[];
  /** Resolves once a command is held; with `answer`, to the service's answer the client never got. */
  readonly held: Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startActionLogProxy(upstream: string, hold: HoldPlan = () => undefined): Promise<ActionLogProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const log: LoggedCommand[] = [];
  let holding = false;
  let commands = 0;
  let onHeld: (answer?: string) => void = () => {};
  const held = new Promise<string | undefined>((resolve) => (onHeld = resolve));
  const parked: ServerResponse[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const command = /\/api\/cmd\/(\w+)$/.exec(req.url ?? '')?.[1];
      const sent = command === undefined ? undefined : (JSON.parse(body.toString('utf8') || '{}') as { guid?: string; x?: number; y?: number });
      const mode = command === undefined || holding ? undefined : hold(command, sent?.guid, commands);
      if (command !== undefined) commands++;
      if (mode !== undefined) {
        holding = true;
        parked.push(res);
      }
      if (mode === 'request') return onHeld();
      const out = forward(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            if (command !== undefined && answer.statusCode === 200) {
              const guid = sent?.guid ?? (JSON.parse(text.toString('utf8')) as { guid: string }).guid;
              log.push({ command, guid, ...(sent?.x === undefined ? {} : { x: sent.x, y: sent.y }), status: 200 });
            }
            if (mode === 'answer') return onHeld(text.toString('utf8'));
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(text);
          });
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    held,
    close: async () => {
      for (const res of parked) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
