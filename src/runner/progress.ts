/**
 * Progress while a run plays. On a terminal: one live line (episodes done/total, actions/s, retries,
 * errors, ETA) redrawn in place. Elsewhere (CI, pipes): nothing here; the logger prints a plain line
 * per finished episode instead.
 */
export interface ProgressSnapshot {
  done: number;
  total: number;
  actions: number;
  retries: number;
  errors: number;
}

export interface ProgressDisplay {
  update(snapshot: ProgressSnapshot): void;
  /** A sentence printed above the live line (the heartbeat's). */
  notice?(sentence: string): void;
  stop(): void;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function progressLine(snapshot: ProgressSnapshot, elapsedSeconds: number): string {
  const rate = elapsedSeconds > 0 ? snapshot.actions / elapsedSeconds : 0;
  const eta = snapshot.done > 0 ? (elapsedSeconds / snapshot.done) * (snapshot.total - snapshot.done) : Infinity;
  return (
    `episodes ${snapshot.done}/${snapshot.total} · ${rate.toFixed(0)} actions/s · retries ${snapshot.retries}` +
    ` · errors ${snapshot.errors} · ETA ${snapshot.done === snapshot.total ? '0:00' : clock(eta)}`
  );
}

/** The live line on a TTY stream; redrawn at most every 100 ms. */
export function terminalProgress(stream: NodeJS.WriteStream, startedAt = Date.now()): ProgressDisplay {
  let last: ProgressSnapshot | undefined;
  const draw = () => {
    if (last) stream.write(`\r\x1b[K${progressLine(last, (Date.now() - startedAt) / 1000)}`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(snapshot) {
      last = snapshot;
    },
    notice(sentence) {
      stream.write(`\r\x1b[K${sentence}\n`);
      draw();
    },
    stop() {
      clearInterval(timer);
      draw();
      if (last) stream.write('\n');
    },
  };
}

export const silentProgress: ProgressDisplay = { update() {}, stop() {} };
