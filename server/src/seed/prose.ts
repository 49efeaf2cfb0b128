// Deterministic demo prose for the seed: a long fantasy novel (Markdown), a Lisbon noir short
// story (plain text) and a poetry collection (HTML). Same text on every start, no lorem ipsum.

/** A small seeded random generator (mulberry32): the same seed gives the same text. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
type Bank = Record<string, readonly string[]>;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** Fills {slot} placeholders from the word bank; a slot can hold further slots. */
function fill(random: Random, template: string, bank: Bank): string {
  return template.replace(/\{(\w+)\}/g, (_match, slot: string) => {
    const options = bank[slot];
    if (!options) return slot;
    return fill(random, pick(random, options), bank);
  });
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A paragraph of `count` different sentences from the templates. */
function sentences(random: Random, templates: readonly string[], count: number, bank: Bank) {
  const left = [...templates];
  const out: string[] = [];
  for (let i = 0; i < count && left.length > 0; i++) {
    const [template] = left.splice(Math.floor(random() * left.length), 1);
    out.push(capitalise(fill(random, template!, bank)));
  }
  return out.join(' ');
}

/** A line of dialogue with its tag: “It was here,” Ilse said. */
function dialogue(random: Random, line: string, speaker: string, verb: string): string {
  const spoken = line.endsWith('.') ? `${line.slice(0, -1)},` : line;
  return `“${spoken}” ${speaker} ${verb}.`;
}

// ─── The Cartographer's Silence (Ada Quill) ────────────────────────────────────────────────

const NOVEL_BANK: Bank = {
  H: ['Maren', 'Maren', 'Maren Holt'],
  C: ['Ilse', 'Ilse', 'the boy Tobin'],
  M: ['old Anselm', 'Anselm', 'the archivist'],
  R: ['the Surveyor-General', 'Councillor Vane', 'the Surveyor-General'],
  place: [
    'the Lantern Quarter',
    'the salt market',
    'the Weir Steps',
    'the old customs house',
    'Gull Street',
    'the drowned chapel',
    'the ropewalk',
    'the north wall',
    'the Sallow bridges',
  ],
  time: ['dusk', 'the early tide', 'the second bell', 'first light', 'the long evening', 'night'],
  weather: ['a thin rain', 'sea fog', 'a wind off the marshes', 'a hard white sun', 'sleet'],
  object: [
    'brass dividers',
    'a cracked sextant',
    'the survey ledger',
    'a roll of vellum',
    'her mother’s compass',
    'a bundle of tracing paper',
    'the guild seal',
  ],
  ink: ['iron-gall ink', 'lamp-black', 'the blue ink the guild forbade', 'borrowed ink'],
  failed: [
    'run into the gutters of the paper',
    'dried pale as milk',
    'moved, very slightly, when she was not looking',
    'refused to hold a straight line',
  ],
  feeling: ['dread', 'a tired kind of hope', 'anger she could not place', 'relief', 'homesickness'],
  sound: ['a bell', 'the tide', 'a dog', 'a cart on cobbles', 'someone singing', 'the weir'],
  soundVerb: ['answered', 'fell silent', 'went on and on', 'stopped mid-note'],
  italic: [
    '*terra nondum descripta*',
    '*The Book of Margins*',
    '*here the city forgets itself*',
    '*Measure twice, draw once*',
    '*the Blank Quarter*',
    '*Gull’s Reach*',
  ],
  thought: [
    'A map is a promise',
    'Nothing drawn is ever finished',
    'You cannot lose a street you never drew',
    'The city is listening',
    'Do not look at the corner',
  ],
  line: [
    'You left the corner blank again.',
    'How many streets did you count today?',
    'The guild will want the sheets by the new moon.',
    'It was not there yesterday. I would swear to it.',
    'Maps do not lie. Mapmakers do.',
    'Walk it with me, then, if you don’t believe me.',
    'Draw what you see, not what you were told.',
    'Burn it. Whatever it is, burn it.',
  ],
  asked: ['said', 'said quietly', 'muttered', 'answered'],
};

const NOVEL_SENTENCES = [
  '{capH} unrolled the survey of {place} across the table and weighted its corners with {object}.',
  '{time} came in over {place} with {weather}, and {H} watched it from the attic window.',
  '{capH} had drawn {place} three times, and each time the {ink} had {failed}.',
  'She thought of {italic}, and of the margins where nobody had ever written anything true.',
  'Somewhere below, {sound} {soundVerb}, and the lamps along {place} guttered.',
  '{capC} leaned over her shoulder and counted the streets under their breath.',
  'The map on the table showed nine streets; the city outside had ten.',
  'There was {feeling} in the way {C} folded the sheets, corner to careful corner.',
  '{capM} kept the old charts in drawers that smelled of cedar and river damp.',
  'Nobody in the guild spoke of {italic} above a whisper.',
  '{capR} had signed the order himself, in a hand too neat to trust.',
  'She dipped the pen, hesitated, and left the corner of the sheet blank.',
  'By {time} the streets had rearranged themselves again, as quietly as furniture in a dream.',
  'The measuring chain lay coiled by the door like something asleep.',
  '{capH} walked {place} twice, counting paces, and got two different answers.',
  'The pigeons of {place} rose all at once, as if someone had called their names.',
  'She pressed her thumb to the paper and felt, absurdly, a pulse.',
  'In the guild hall the clerks bent over their ledgers and did not look up.',
];

const NOVEL_CHAPTERS = [
  'The Ninth Street',
  'Vellum and Salt',
  'A Corner Left Blank',
  'The Archivist’s Drawers',
  'Measuring Chains',
  'The Drowned Chapel',
  'What the Tide Keeps',
  'Councillor Vane',
  'The Quiet Ink',
  'Gull’s Reach',
  'A Map of Nowhere',
  'The Surveyor’s Order',
  'Lamp-black',
  'Under the Weir',
  'The Tenth Street',
  'Paper Walls',
  'The Guild Burns',
  'Terra Nondum',
  'Margins',
  'The Last Sheet',
];
const NOVEL_PARTS = ['Part One: The Blank Quarter', 'Part Two: Quiet Ink', 'Part Three: Margins'];

function novelParagraph(random: Random): string {
  const bank: Bank = {
    ...NOVEL_BANK,
    capH: NOVEL_BANK.H!.map(capitalise),
    capC: NOVEL_BANK.C!.map(capitalise),
    capM: NOVEL_BANK.M!.map(capitalise),
    capR: NOVEL_BANK.R!.map(capitalise),
  };
  if (random() < 0.22) {
    const speaker = fill(random, pick(random, ['{C}', '{M}', '{H}', '{R}']), bank);
    const line = fill(random, '{line}', bank);
    const verb = line.endsWith('?') ? 'asked' : fill(random, '{asked}', bank);
    return `${dialogue(random, line, speaker, verb)} ${sentences(random, NOVEL_SENTENCES, 1 + Math.floor(random() * 2), bank)}`;
  }
  if (random() < 0.08) {
    return fill(random, '*{thought}*, she told herself, and did not believe it.', bank);
  }
  return sentences(random, NOVEL_SENTENCES, 3 + Math.floor(random() * 4), bank);
}

/** The long demo novel in Markdown: three parts (h2), twenty chapters (h1), scene breaks, italics. */
export function cartographerNovel(targetWords = 42_000): string {
  const random = seededRandom(1852);
  const chapterWords = targetWords / NOVEL_CHAPTERS.length;
  const out: string[] = ['# The Cartographer’s Silence', ''];
  NOVEL_CHAPTERS.forEach((title, index) => {
    if (index % 7 === 0) out.push(`## ${NOVEL_PARTS[index / 7]}`, '');
    out.push(`# Chapter ${index + 1}: ${title}`, '');
    let words = 0;
    let sinceBreak = 0;
    while (words < chapterWords) {
      const paragraph = novelParagraph(random);
      out.push(paragraph, '');
      words += paragraph.split(/\s+/).length;
      sinceBreak += 1;
      if (sinceBreak > 12 && random() < 0.12 && words < chapterWords * 0.85) {
        out.push('* * *', '');
        sinceBreak = 0;
      }
    }
  });
  return out.join('\n');
}

// ─── The Tagus Ledger (Tomás Reyes) ────────────────────────────────────────────────────────

const STORY_BANK: Bank = {
  place: [
    'the Cais do Sodré',
    'a tram stop in Graça',
    'the back room of the Pharmácia Estrela',
    'the ferry to Cacilhas',
    'an Alfama stairway',
    'the fish market at dawn',
  ],
  smell: [
    'diesel and oranges',
    'wet stone',
    'bleach and old paper',
    'grilled sardines',
    'river mud',
  ],
  detail: [
    'a ledger with three pages razored out',
    'a prescription for forty tablets of morphine',
    'a lipstick mark on a coffee cup',
    'a ferry ticket punched twice',
    'a pharmacist’s coat with someone else’s name on it',
  ],
  line: [
    'Nobody counts the pills twice, Inspector. Nobody except me.',
    'You want the truth or you want to go home?',
    'She paid in cash. She always paid in cash.',
    'The river gives everything back eventually.',
    'I fill prescriptions. I don’t read them.',
  ],
};

const STORY_SENTENCES = [
  'Inspector Luísa Brandão smelled {smell} before she saw the body.',
  'At {place} the lights were already on, though it was barely four.',
  'Rui Amaral had left behind {detail}, and not much else.',
  'She wrote it down in the small notebook she kept for things that did not fit.',
  'The rain had the patience of a creditor.',
  'Somebody on the night shift had been very careful, and carefulness was its own kind of fingerprint.',
  'The river slid past, brown and indifferent, carrying the city’s secrets out to the *mar da palha*.',
  'Luísa lit a cigarette she did not want and let it burn down between her fingers.',
  'Down at {place}, a man in a grey raincoat was pretending to read a newspaper.',
  'The numbers in the ledger were neat, and neat numbers had never once told her the truth.',
];

/** The demo short story in plain text: a title line, sections, scene breaks (~3,500 words). */
export function tagusLedgerStory(targetWords = 3_500): string {
  const random = seededRandom(1755);
  const sections = [
    'Part One: The Night Shift',
    'Part Two: Forty Tablets',
    'Part Three: The Ferry to Cacilhas',
  ];
  const out: string[] = ['THE TAGUS LEDGER', ''];
  for (const section of sections) {
    out.push(section, '');
    let words = 0;
    let paragraphs = 0;
    while (words < targetWords / sections.length) {
      const paragraph =
        random() < 0.25
          ? `${dialogue(random, fill(random, '{line}', STORY_BANK), pick(random, ['Rosa Amaral', 'the night porter', 'Dr. Pires']), 'said')} ${sentences(random, STORY_SENTENCES, 1, STORY_BANK)}`
          : sentences(random, STORY_SENTENCES, 3 + Math.floor(random() * 3), STORY_BANK);
      out.push(paragraph.replace(/\*/g, ''), '');
      words += paragraph.split(/\s+/).length;
      paragraphs += 1;
      if (paragraphs % 9 === 0) out.push('* * *', '');
    }
  }
  return out.join('\n');
}

// ─── Small Hours (Ada Quill) ───────────────────────────────────────────────────────────────

const POEMS: Array<{ title: string; stanzas: string[][] }> = [
  {
    title: 'Survey',
    stanzas: [
      [
        'I measured the kitchen in footsteps,',
        'the hallway in held breaths,',
        'the garden in the hours it took to dark.',
      ],
      ['None of it agreed.', 'A house is not a place,', 'it is a habit of returning.'],
    ],
  },
  {
    title: 'Lamp-black',
    stanzas: [
      [
        'Soot from a hundred evenings',
        'ground fine in a saucer —',
        'this is how they made the dark that wrote the day.',
      ],
      ['I keep a little in a tin.', 'Some nights I open it', 'just to see what I could still say.'],
    ],
  },
  {
    title: 'Margins',
    stanzas: [
      ['Someone pencilled *yes* beside this line', 'forty years ago,', 'and underlined it twice.'],
      ['I have been trying all afternoon', 'to be the kind of reader', 'who deserves that yes.'],
    ],
  },
  {
    title: 'Tide Table',
    stanzas: [
      [
        'Low at six, high at noon,',
        'the harbour breathing out, then in,',
        'the boats agreeing with it.',
      ],
      [
        'I would like a table like that for grief:',
        'the hour it goes out,',
        'the hour it comes back in.',
      ],
    ],
  },
  {
    title: 'Small Hours',
    stanzas: [
      [
        'Three a.m., and the fridge hums its one note.',
        'The cat considers me',
        'from the far side of the question.',
      ],
      [
        'Somewhere a night bus',
        'carries its lit rooms through the rain,',
        'and no one on it is asleep either.',
      ],
    ],
  },
  {
    title: 'Legend',
    stanzas: [
      [
        'Blue for water. Green for what grows.',
        'A dotted line for the border',
        'nobody walking there can see.',
      ],
      [
        'And this small star, here,',
        'for the town where you were born —',
        'the map did not need it. I did.',
      ],
    ],
  },
];

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The demo poetry collection as an HTML document: one h2 per poem, stanzas as line-broken paragraphs. */
export function smallHoursPoems(): string {
  const body = POEMS.map(
    (poem) =>
      `<h2>${escapeHtml(poem.title)}</h2>\n` +
      poem.stanzas
        .map(
          (stanza) =>
            `<p>${stanza
              .map((line) => escapeHtml(line).replace(/\*(.+?)\*/g, '<em>$1</em>'))
              .join('<br>\n')}</p>`,
        )
        .join('\n'),
  ).join('\n<hr>\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Small Hours</title></head>
<body>
<h1>Small Hours</h1>
<p><em>Poems for the hours nobody maps.</em></p>
${body}
</body></html>
`;
}
