/**
 * The bytes of uploads this process has just stored, for its own conversion job to take instead
 * of reading them back from the database (~7 ms for a book on the embedded database, on the
 * event loop). Kept for a minute and 64 MB at most: a job that runs in another process, or
 * later (a retry), reads the original from the database as before.
 */
const KEEP_MS = 60_000;
const MAX_BYTES = 64 * 1024 * 1024;

const kept = new Map<string, { bytes: Uint8Array; timer: NodeJS.Timeout }>();
let keptBytes = 0;

/** Call after the transaction that stored the upload has committed. */
export function handOver(conversionId: string, bytes: Uint8Array): void {
  if (bytes.byteLength + keptBytes > MAX_BYTES || kept.has(conversionId)) return;
  const timer = setTimeout(() => take(conversionId), KEEP_MS);
  timer.unref();
  kept.set(conversionId, { bytes, timer });
  keptBytes += bytes.byteLength;
}

/** The upload's bytes, once; null when this process does not hold them (any more). */
export function take(conversionId: string): Uint8Array | null {
  const entry = kept.get(conversionId);
  if (!entry) return null;
  kept.delete(conversionId);
  clearTimeout(entry.timer);
  keptBytes -= entry.bytes.byteLength;
  return entry.bytes;
}
