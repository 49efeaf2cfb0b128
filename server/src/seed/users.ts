import type { schema } from '../db/index.ts';

type UserInsert = Omit<typeof schema.users.$inferInsert, 'passwordHash'>;

/** Demo people: an admin, a moderator, two authors and two readers, with filled profiles. */
export const DEMO_USERS: Array<
  UserInsert & { kind: 'admin' | 'moderator' | 'author' | 'reader'; genres: string[] }
> = [
  {
    kind: 'admin',
    email: 'admin@margins.local',
    role: 'admin',
    handle: 'margins_admin',
    displayName: 'Margins Admin',
    about: 'Keeps the lights on and the margins tidy.',
    pronouns: 'they/them',
    website: 'https://margins.local',
    genres: ['Essays'],
  },
  {
    kind: 'moderator',
    email: 'moderator@margins.local',
    role: 'moderator',
    handle: 'margins_moderator',
    displayName: 'Margins Moderator',
    about: 'Reads the reports so that the margins stay kind.',
    genres: [],
  },
  {
    kind: 'author',
    email: 'ada@margins.local',
    handle: 'ada_quill',
    displayName: 'Ada Quill',
    about:
      'Writes slow-burn fantasy about cartographers and the cities they forget to draw. Two drafts in, looking for readers who love maps.',
    pronouns: 'she/her',
    bluesky: 'adaquill.bsky.social',
    instagram: 'adaquill',
    mastodon: 'https://writing.exchange/@adaquill',
    website: 'https://adaquill.example',
    discord: 'adaquill',
    genres: ['Fantasy', 'Literary', 'Adventure', 'Lyric'],
  },
  {
    kind: 'author',
    email: 'tomas@margins.local',
    handle: 'tomas_reyes',
    displayName: 'Tomás Reyes',
    about: 'Crime novelist by night, hospital pharmacist by day. Currently revising a Lisbon noir.',
    pronouns: 'he/him',
    twitter: 'tomaswrites',
    youtube: 'tomasreyeswrites',
    threads: 'tomaswrites',
    genres: ['Mystery', 'Thriller', 'True Crime', 'Historical'],
  },
  {
    kind: 'reader',
    email: 'june@margins.local',
    handle: 'june_reads',
    displayName: 'June Okafor',
    about: 'Beta reader, line-edit enthusiast, chronic margin scribbler.',
    pronouns: 'she/they',
    tiktok: 'junereads',
    facebook: 'june.okafor.reads',
    genres: ['Fantasy', 'Romance', 'Young Adult', 'Memoir'],
  },
  {
    kind: 'reader',
    email: 'sam@margins.local',
    handle: 'sam_inkwell',
    displayName: 'Sam Inkwell',
    about: '',
    genres: [],
  },
];
