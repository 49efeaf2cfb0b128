// How often each letter outside ASCII occurs in ordinary prose of the languages that legacy
// encodings were made for (rounded, from published letter-frequency tables; per mille of the
// script's letters). Encoding detection compares a candidate decoding's letters with these: a
// wrong code page turns common letters into rare ones, or into letters of another language.

/** One language: its script and its letters outside ASCII, each with its weight. */
export interface LanguageProfile {
  language: string;
  script: 'Latin' | 'Cyrillic' | 'Greek' | 'Hebrew' | 'Arabic';
  letters: Record<string, number>;
}

function profile(
  language: string,
  script: LanguageProfile['script'],
  pairs: string,
): LanguageProfile {
  const letters: Record<string, number> = {};
  for (const pair of pairs.trim().split(/\s+/)) {
    const letter = pair.slice(0, [...pair][0]!.length);
    letters[letter] = Number(pair.slice(letter.length));
  }
  return { language, script, letters };
}

export const LANGUAGE_PROFILES: LanguageProfile[] = [
  profile(
    'Russian',
    'Cyrillic',
    'о110 е85 а80 и74 н67 т63 с55 р47 в45 л44 к35 м32 д30 п28 у26 я20 ы19 ь17 г17 з17 б16 ч14 й12 х10 ж9 ш7 ю6 ц5 щ4 э3 ф3 ъ1 ё1',
  ),
  profile(
    'Ukrainian',
    'Cyrillic',
    'о94 а86 н70 и62 і57 в50 т50 е49 р47 с44 к36 л36 у34 д32 м30 п29 я22 з21 ь17 г16 б16 ч14 х11 й11 ж9 ц9 ш8 ю7 ї6 є4 щ4 ф3',
  ),
  profile(
    'Bulgarian',
    'Cyrillic',
    'а130 о92 е90 и88 н80 т72 р54 с47 в45 л33 к34 д31 п29 м26 ъ25 з20 у19 б15 ч12 г15 я11 й6 х8 ц7 ш6 ж5 щ4 ю2 ф1 ь1',
  ),
  profile(
    'Serbian',
    'Cyrillic',
    'а115 и98 о93 е85 н63 с50 р48 т45 ј45 в42 у41 д37 к36 л33 п29 м32 з17 г16 б15 ч11 ш8 ц6 њ6 љ5 х5 ж6 ћ7 ђ2 ф1 џ1',
  ),
  profile(
    'Greek',
    'Greek',
    'α100 ο80 ι70 ε70 τ80 σ45 ς30 ν65 η35 υ35 ρ42 π40 κ40 μ35 λ28 ω12 δ18 γ17 χ12 θ12 φ8 β7 ξ4 ζ4 ψ2 ά20 έ15 ί18 ό18 ύ8 ή12 ώ7 ϊ1',
  ),
  profile(
    'Hebrew',
    'Hebrew',
    'י110 ו100 ה87 ל73 א63 ר56 ת52 ב47 מ47 ש43 ם35 נ30 ע27 ד26 כ23 ח22 ק19 פ13 ס11 ט11 ג10 ן10 ז7 צ7 ך5 ף3 ץ2',
  ),
  profile(
    'Yiddish',
    'Hebrew',
    'י130 א100 ע80 ו65 ר60 ט50 ן37 פ32 נ30 ל30 מ30 ס30 ד25 ב25 ש24 ק23 ז20 ג18 ה12 כ12 צ10 ם9 ך8 ח5 ת3 װ2 ײ2 ף2',
  ),
  profile(
    'Arabic',
    'Arabic',
    'ا120 ل110 ي80 م65 و60 ن60 ه50 ر45 ت45 ب40 ع35 ف30 د30 ك25 ق25 س25 أ20 ح20 ة25 ج15 إ10 ش10 ص10 ى10 خ8 ط8 ذ7 ز6 ض5 ث5 غ4 ظ2 ء5 آ2 ئ3 ؤ2',
  ),
  profile('French', 'Latin', 'é550 è80 à120 ç30 ê50 â10 î10 ô15 û5 ù10 ë3 ï3 œ5'),
  profile('German', 'Latin', 'ü350 ä300 ö200 ß150'),
  profile('Spanish', 'Latin', 'á150 é200 í200 ó250 ú50 ñ120 ü5'),
  profile('Portuguese', 'Latin', 'ã200 ç120 é140 á140 ê60 ó80 í60 õ60 â30 ú30 à30 ô20'),
  profile('Italian', 'Latin', 'à300 è350 é50 ì80 ò120 ù100'),
  profile('Catalan', 'Latin', 'à200 è150 é150 í100 ï20 ò100 ó100 ú50 ü10 ç50'),
  profile('Dutch', 'Latin', 'ë500 é400 ï100'),
  profile('Danish', 'Latin', 'æ300 ø350 å350'),
  profile('Swedish', 'Latin', 'ä450 å300 ö250'),
  profile('Finnish', 'Latin', 'ä800 ö200'),
  profile('Icelandic', 'Latin', 'á150 ð200 é50 í120 ó80 ú60 ý50 þ100 æ80 ö60'),
  profile('Czech', 'Latin', 'í180 á170 é100 ě90 ř80 ý80 č70 š60 ž60 ů30 ú20 ň10 ť10 ď10 ó5'),
  profile('Slovak', 'Latin', 'á200 í150 é80 ý100 č60 š60 ž60 ú50 ô30 ľ40 ť30 ň20 ď20 ä5 ĺ2 ŕ2'),
  profile('Polish', 'Latin', 'ł150 ę80 ą80 ż70 ó70 ś60 ć30 ń30 ź10'),
  profile('Hungarian', 'Latin', 'é280 á270 ő70 ö80 ü40 ó80 í50 ú30 ű20'),
  profile('Romanian', 'Latin', 'ă350 î150 â100 ș100 ş100 ț80 ţ70'),
  profile('Croatian', 'Latin', 'č300 š250 ž200 ć150 đ100'),
  profile('Turkish', 'Latin', 'ı350 ş150 ç120 ğ120 ü150 ö100'),
  profile('Lithuanian', 'Latin', 'ą80 č60 ę40 ė150 į80 š150 ų80 ū80 ž80'),
  profile('Latvian', 'Latin', 'ā250 č40 ē150 ģ10 ī150 ķ20 ļ20 ņ30 š80 ū80 ž30'),
];
