// The recording thread's first module, plain JavaScript so that it loads as it is both from the
// TypeScript sources (under tsx or vitest, whose loaders a worker thread does not inherit) and from the
// built package: it registers tsx only when the thread's real entry is a .ts file.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
