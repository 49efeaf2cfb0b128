// One server process of the two-process fan-out benchmark (realtime-fanout.bench.ts
// --processes=2): the app on DATABASE_URL (PostgreSQL, so the Socket.IO adapter joins the
// processes), listening on a free port, which it reports to its parent.
import { startServer } from './realtime-support.ts';

const server = await startServer(process.env.DATABASE_URL);
process.send!({ type: 'listening', baseUrl: server.baseUrl });
process.on('message', async (message: { type: string }) => {
  if (message.type !== 'close') return;
  await server.close();
  process.exit(0);
});
