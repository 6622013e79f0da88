/**
 * Auto-close of idle and overlong scorecards (docs/protocol.md §5), and forgetting closed ones past their retention,
 * need a clock tick: while the server is up, every backend is swept on an interval. The timer does not
 * keep the process alive and stops on close.
 */
import type { FastifyInstance } from 'fastify';
import type { ReferenceService } from '../referenceService.ts';

export function installSweep(app: FastifyInstance, backends: readonly ReferenceService[], intervalMs: number): void {
  if (!(intervalMs > 0)) throw new RangeError(`sweepIntervalMs must be positive, got ${intervalMs}`);
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      for (const backend of backends) {
        try {
          const closed = backend.sweep();
          if (closed > 0) app.log.info({ closed }, 'auto-closed expired scorecards');
          const forgotten = backend.forgetClosedCards();
          if (forgotten > 0) app.log.info({ forgotten }, 'forgot closed scorecards past their retention');
        } catch (error) {
          app.log.error({ err: error }, 'sweeping expired scorecards failed');
        }
      }
    }, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearInterval(timer);
  });
}
