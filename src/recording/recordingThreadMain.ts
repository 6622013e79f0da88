/**
 * The recording thread: applies each batch the playing thread sends to the recording files, then says
 * the batch is done (the playing thread counts what is still in flight, to keep memory bounded).
 */
import { parentPort } from 'node:worker_threads';
import { readBatch } from './recordingBatch.ts';
import { RecordingFiles } from './recordingFiles.ts';

/** A message from the recording thread to the playing thread. */
export type RecordingThreadReply =
  | { readonly kind: 'done'; readonly bytes: number; readonly buffer: ArrayBuffer }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string }
  | { readonly kind: 'synced'; readonly id: number }
  | { readonly kind: 'closed'; readonly id: number; readonly error: string | undefined };

/** A message from the playing thread: one batch of operations (recordingBatch.ts). */
export interface RecordingThreadBatch {
  readonly buffer: ArrayBuffer;
  readonly length: number;
}

if (parentPort !== null) {
  const port = parentPort;
  const reply = (message: RecordingThreadReply) => port.postMessage(message);
  const files = new RecordingFiles({
    failed: (id, message) => reply({ kind: 'failed', id, message }),
    synced: (id) => reply({ kind: 'synced', id }),
    closed: (id, error) => reply({ kind: 'closed', id, error }),
  });
  port.on('message', (batch: RecordingThreadBatch) => {
    readBatch(batch.buffer, batch.length, files);
    // The buffer goes back for the next batch: a new one each time was a tenth of the playing thread's work.
    port.postMessage({ kind: 'done', bytes: batch.length, buffer: batch.buffer } satisfies RecordingThreadReply, [batch.buffer]);
  });
}
