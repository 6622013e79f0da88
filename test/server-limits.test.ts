/**
 * What one client can hold of the server (issue 10, point 17): an idle keep-alive socket, a request whose
 * headers never finish, and connections beyond a cap are all let go, with limits the caller sets.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../src/reference/server/index.ts';
import { fixtureGames } from './fixtures/fixtureGames.ts';

const running: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  while (running.length > 0) await running.pop()!.close();
});

async function serve(options: StartServerOptions) {
  const server = await startServer({ serviceOptions: { games: fixtureGames() }, ...options });
  running.push(server);
  return server;
}

/** A raw connection that keeps everything the server sends, and notes when the server closed it. */
async function rawConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => received);
  await once(socket, 'connect');
  return { socket, closed, received: () => received };
}

const HEALTHCHECK = 'GET /api/healthcheck HTTP/1.1\r\nHost: test\r\n\r\n';

describe('connection limits', () => {
  it('answers 408 and closes a connection whose request headers do not arrive in time', async () => {
    const server = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { socket, closed } = await rawConnection(server.port);
    socket.write('GET /api/healthcheck HTTP/1.1\r\nHost: test\r\n'); // the blank line never comes
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after the idle timeout', async () => {
    const server = await serve({ keepAliveTimeoutMs: 200 });
    const { socket, closed, received } = await rawConnection(server.port);
    socket.write(HEALTHCHECK);
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(received()).toMatch(/keep-alive: timeout=0/i);
  });

  it('refuses connections over the cap while those under it are served', async () => {
    const server = await serve({ maxConnections: 2 });
    const first = await rawConnection(server.port);
    const second = await rawConnection(server.port);
    const third = await rawConnection(server.port);
    expect(await third.closed).toBe('');
    for (const connection of [first, second]) connection.socket.write(HEALTHCHECK);
    // Both answers arrive on connections kept alive, so no 'close' marks them: poll until they are in.
    await vi.waitFor(
      () => {
        expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);
        expect(second.received()).toMatch(/^HTTP\/1\.1 200 /);
      },
      { timeout: 10_000, interval: 10 },
    );
  });

  it('refuses limits that cannot work, naming them', async () => {
    await expect(serve({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).rejects.toThrow(/headersTimeoutMs \(5000\) must not exceed requestTimeoutMs/);
    await expect(serve({ maxConnections: 0 })).rejects.toThrow(/maxConnections must be a positive number/);
  });
});
