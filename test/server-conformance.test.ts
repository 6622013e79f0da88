/** The conformance suite of docs/protocol.md §2–§6 over real HTTP: the server must answer exactly as the library. */
import { defineConformanceSuite } from './support/conformance.ts';
import { createHttpDriver } from './support/httpDriver.ts';
import { startServer } from '../src/reference/server/index.ts';

defineConformanceSuite('HTTP server', async (service) => {
  const server = await startServer({ backends: [service] });
  return { driver: createHttpDriver(server.url), dispose: () => server.close() };
});

defineConformanceSuite(
  'HTTP server, toolkit dialect',
  async (service) => {
    const server = await startServer({ backends: [service], dialect: 'toolkit' });
    return { driver: createHttpDriver(server.url), dispose: () => server.close() };
  },
  'toolkit',
);
