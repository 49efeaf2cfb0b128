// Summarises a V8 .cpuprofile (from --cpu-prof): self time per function and per package/area.
//   npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const totalUs = [...selfUs.values()].reduce((sum, value) => sum + value, 0);

/** The package (node_modules/<name>), our own area (server/src/<dir>), or node's internals. */
function areaOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(server|common|bench)\/src\/([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url === '' ? '(vm: gc, idle, native)' : url;
}

const functions = new Map<string, number>();
const areas = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
  const area = frame.url === '' ? frame.functionName : areaOf(frame.url);
  areas.set(area, (areas.get(area) ?? 0) + us);
}
const print = (title: string, rows: Map<string, number>) => {
  console.log(title);
  for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * us) / totalUs).toFixed(1).padStart(6)} %  ${name}`);
  }
};
console.log(`total ${(totalUs / 1e6).toFixed(1)} s sampled`);
print('self time by area:', areas);
print('self time by function:', functions);
