/** The conformance suite of docs/protocol.md §2–§6, run against the library itself. */
import { defineConformanceSuite } from './support/conformance.ts';
import { createLibraryDriver } from './support/serviceDriver.ts';

defineConformanceSuite('library', async (service) => ({ driver: createLibraryDriver(service), dispose: async () => {} }));
