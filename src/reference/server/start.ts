/** Starts the server on a host and port (0: a free one) and hands back its URL and a graceful close. */
import type { AddressInfo } from 'node:net';
import type { ReferenceService } from '../referenceService.ts';
import { assembleServer } from './app.ts';
import type { ServerOptions } from './options.ts';

export interface StartServerOptions extends ServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface RunningServer {
  /** `http://HOST:PORT`, no trailing slash. */
  url: string;
  port: number;
  backends: ReferenceService[];
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { app, backends } = assembleServer(options);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    backends,
    close: async () => {
      await app.close();
    },
  };
}
