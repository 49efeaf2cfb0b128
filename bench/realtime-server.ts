// One server process of the two-process fan-out benchmark (realtime-fanout.bench.ts
// --processes=2): the app on DATABASE_URL (PostgreSQL, so the Socket.IO adapter joins the
// processes), listening on a free port, which it reports to its parent.
// realtime-headroom.bench.ts runs it on PGlite in a temporary data dir (under --cpu-prof if asked) and has it
// make the people and the manuscript ("setup"), since only this process can reach that database.
import { createManuscript, createPeople, startServer } from './realtime-support.ts';

const server = await startServer(process.env.DATABASE_URL);
process.send!({ type: 'listening', baseUrl: server.baseUrl });
process.on('message', async (message: { type: string; people?: number }) => {
  if (message.type === 'setup') {
    const [owner, ...readers] = await createPeople(server.database, (message.people ?? 1) + 1);
    const manuscriptId = await createManuscript(server.database, owner!.id);
    process.send!({ type: 'setup', manuscriptId, cookies: readers.map((r) => r.cookie) });
  }
  if (message.type !== 'close') return;
  await server.close();
  process.exit(0);
});
