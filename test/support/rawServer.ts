/**
 * A raw HTTP server for tests that need a server to misbehave exactly: `answer` writes whatever bytes it
 * likes for each request, given the request, its arrival index and its socket (httpWire.ts builds
 * answers). Records which connection each request came on.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { readRequests, type WireRequest } from './httpWire.ts';

export interface Arrival {
  connection: number;
  request: WireRequest;
}

export interface RawServer {
  readonly url: string;
  readonly arrivals: readonly Arrival[];
  close(): Promise<void>;
}

export async function startRawServer(answer: (request: WireRequest, index: number, socket: Socket) => void): Promise<RawServer> {
  const arrivals: Arrival[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    const connection = connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    readRequests(socket, (request) => {
      arrivals.push({ connection, request });
      answer(request, arrivals.length - 1, socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
