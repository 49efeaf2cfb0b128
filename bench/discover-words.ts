// The vocabulary of the Discover benchmark's texts, in order of frequency: English function
// words first (the most common words of any text; the search drops them as stop words), then
// content words, then made-up words for the long tail. Drawn by Zipf's law (the word of rank
// r about 1/r as often as the most common), so "the" is in every text, a content word of
// rank ~150 ("storm") in about one text in five and one of rank ~1,500 in about one in fifty,
// as in real books. The benchmark's search words sit at chosen ranks (broad and narrow ones).

export const FUNCTION_WORDS = `the of and to a in that it was he i for on you with as his she
her at by had be not but from they this we which or have an were there all one their been
so when who would what out up my into if no them more him then could some about like over
only than its our also after me now any these did just down your before back through where
again much little very still here should must even while though those because between upon
each every under never both once might long same another around without always since`
  .split(/\s+/)
  .filter(Boolean);

/** Content words, most common first; the bench's search words among them at chosen ranks. */
export const CONTENT_WORDS = `time house night day water hand light door eyes world road
storm river tide letters garden house morning window voice mother father city sea village
winter summer island ferry silver kingdom paper quiet glass harbour crown salt lantern stone
fire bread church field forest mountain station school table summer shadow bridge wind snow
clock mirror widow thief bones ashes marsh honey wolves ember saint railway orchard compass
atlas comet desert falcon furnace orphan archive ledger amber borrowed crooked hollow drowned
midnight cathedral lighthouse violin dragon meridian orchid siren cartographer
letter brother sister daughter son king queen soldier doctor teacher captain sailor farmer
painter singer stranger neighbour friend lover enemy ghost witch angel child children woman
man girl boy husband wife family war peace love death life memory dream promise secret truth
lie story song book word name face heart blood bone skin hair breath silence sound music
dance game journey home room kitchen bed floor wall roof street square market harbourmaster
ship boat train car horse dog cat bird fish tree flower leaf rose apple wine salt sugar
milk coffee tea rain cloud sun moon star sky earth ground sand rock hill valley lake shore
coast cliff cave well tower castle palace prison court hospital library museum theatre
factory mill farm barn orchardman garden gate fence path wood iron gold copper glassblower
candle lamp fireplace chair box bag coat hat shoe ring key map clockmaker compassrose
spring autumn evening dawn dusk hour minute year century age past future history news
question answer reason chance luck fear hope anger grief joy shame pride courage honour
duty law crime murder trial judge witness police detective spy traitor rebel revolution
empire republic border frontier exile refugee pilgrim priest monk nun bishop prophet
miracle wonder magic spell curse blessing prayer psalm hymn verse poem novel chapter page
ink pen pencil paint canvas photograph portrait statue garden fountain pond canal dock
quay pier wharf tavern inn hotel shop bakery butcher tailor weaver smith carpenter mason
miner fisherman hunter shepherd merchant banker clerk lawyer nurse midwife widower heir
inheritance fortune debt wage coin silverware tapestry carpet curtain blanket pillow
quilt thread needle button ribbon lace velvet linen wool cotton silk leather feather
fur claw wing nest egg seed root branch thorn vine ivy moss fern reed willow oak elm
birch pine cedar maple ash yew hazel heather thistle nettle clover daisy lily violet`
  .split(/\s+/)
  .filter(Boolean);

export const SENTENCES = [
  'The lamps along the quay went out one by one, as if someone were counting them.',
  'She kept the letters in a biscuit tin and read them only when it rained.',
  'Nobody in the village remembered who had planted the orchard.',
  'He measured the coastline twice and got two different answers, and believed both.',
  'The map was wrong in exactly one place, and that was where the story began.',
  'By morning the tide had taken the road, and the island belonged to itself again.',
  'There is a kind of silence that only old libraries know how to keep.',
  'Grief, it turned out, had a timetable, and it ran later than the ferries.',
  'Every ledger tells a story, if you know which numbers are lying.',
  'The storm came in sideways, carrying salt and the smell of burnt sugar.',
  'Her brother sold clocks that ran backwards to tourists who never noticed.',
  'The cathedral bells had been silent for forty years until the night of the flood.',
];

export const NAMES = `Éloïse Kwame Inês Haruto Maeve Zoë Björn Amara Tomás Noor Søren Chiara
Dmitri Aoife José Leilani Mateus Ngozi Renée Yusuf`.split(/\s+/);

export const SURNAMES = `Marchetti Asante Duarte Sato O'Brien Lindqvist Okafor Reyes Haddad
Kowalski Moreau Novak Fairweather Quill Ibáñez Nakamura Brennan`.split(/\s+/);

/** Pronounceable made-up words, so the long tail is large without a dictionary file. */
const SYLLABLES = `ka lo mer ti ran sel vo dun ash bri co fen gal hol ist jor kel lum mor
nev ost pra quin rel sta tor ul ven wyr yel zan bel cor dra el fal`.split(/\s+/);

export function madeUpWords(count: number): string[] {
  const n = SYLLABLES.length;
  return Array.from({ length: count }, (_, index) => {
    const a = SYLLABLES[index % n]!;
    const b = SYLLABLES[Math.floor(index / n) % n]!;
    const c = SYLLABLES[Math.floor(index / n ** 2) % n]!;
    return index < n * n ? a + b : a + b + c;
  });
}

/** The seed's mulberry32: the same fill every run. */
export { seededRandom } from '../server/src/seed/prose.ts';

/** Draws words of `list` by Zipf's law (weight 1/rank), by binary search of the cumulated weights. */
export function zipfSampler(list: string[], random: () => number): () => string {
  const cumulative = new Float64Array(list.length);
  let sum = 0;
  for (let rank = 0; rank < list.length; rank += 1) {
    sum += 1 / (rank + 1);
    cumulative[rank] = sum;
  }
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = list.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return list[low]!;
  };
}
