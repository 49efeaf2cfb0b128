/**
 * Whether this process takes new work. It starts serving; a SIGTERM (launch/drain.ts) turns it
 * to draining at once, which /readyz reports as 503 so that a balancer sends new requests
 * elsewhere while the ones in flight finish.
 */
export class Lifecycle {
  draining = false;

  startDraining(): void {
    this.draining = true;
  }
}
