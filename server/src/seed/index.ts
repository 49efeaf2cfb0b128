import type { AppContext } from '../context.ts';

/** Fills an empty database with demo data; returns the start-log report, or null. */
export async function seedDemoData(_ctx: AppContext): Promise<string | null> {
  return null;
}
