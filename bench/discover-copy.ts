// Bulk rows for the Discover fill by COPY … FROM STDIN (text format), on both drivers: PGlite
// reads the rows from a Blob (`COPY … FROM '/dev/blob'`), node-postgres through a submittable
// query that answers the server's CopyInResponse with the data (what pg-copy-streams does,
// without the dependency: one buffer, no stream).
import type { Database } from '../server/src/db/index.ts';

type Value = string | number | boolean | null;

/** One field in COPY's text format: backslash, tab and line ends escaped; null as \N. */
function field(value: Value): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value)
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

/** A COPY … FROM STDIN for node-postgres's client.query (its Submittable interface). */
class CopyIn {
  readonly done: Promise<void>;
  private settle!: (error: Error | null) => void;
  private error: Error | null = null;

  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: {
    sendCopyFromChunk(chunk: Buffer): void;
    endCopyFrom(): void;
  }): void {
    connection.sendCopyFromChunk(this.data);
    connection.endCopyFrom();
  }

  handleCommandComplete(): void {}

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    this.settle(this.error);
  }
}

/** Writes rows into `target` ("table (col, …)") with one COPY. */
export async function copyRows(database: Database, target: string, rows: Value[][]): Promise<void> {
  const data = rows.map((row) => row.map(field).join('\t')).join('\n') + '\n';
  if (database.pglite) {
    await database.pglite.query(`copy ${target} from '/dev/blob'`, [], {
      blob: new Blob([data]),
    });
    return;
  }
  const client = await database.pool!.connect();
  try {
    const copy = new CopyIn(`copy ${target} from stdin`, Buffer.from(data));
    client.query(copy as unknown as Parameters<typeof client.query>[0]);
    await copy.done;
  } finally {
    client.release();
  }
}
