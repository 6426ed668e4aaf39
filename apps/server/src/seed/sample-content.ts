/**
 * The sample neighbourhood seeded on first start: fixed ids, so a restart inserts nothing twice.
 * Every sample user logs in with SAMPLE_PASSWORD (documented in the README).
 */
import type { CatLiving, CoatColour, YesNoUnknown } from '@cats/contracts';

export const SAMPLE_PASSWORD = 'Neighbour1Cats';

export interface SampleUser {
  id: string;
  username: string;
  email: string;
  /** Index into the cat art used for the profile picture; null keeps the default avatar. */
  avatar: number | null;
  exactPublicLocation: boolean;
}

const userId = (n: number) => `5eed0000-0000-4000-8000-0000000000${(0xa0 + n).toString(16)}`;
export const samplePostId = (n: number) => `5eed0000-0000-4000-8000-00000000${(0xb000 + n).toString(16)}`;
export const sampleCatId = (n: number) => `5eed0000-0000-4000-8000-00000000${(0xd000 + n).toString(16)}`;
export const sampleCommentId = (n: number) => `5eed0000-0000-4000-8000-00000000${(0xc000 + n).toString(16)}`;

export const SAMPLE_USERS: readonly SampleUser[] = [
  {
    id: userId(1),
    username: 'luna_lover',
    email: 'luna@example.com',
    avatar: 40,
    exactPublicLocation: false,
  },
  {
    id: userId(2),
    username: 'gato_malaga',
    email: 'gato@example.com',
    avatar: 41,
    exactPublicLocation: true,
  },
  {
    id: userId(3),
    username: 'mariposa',
    email: 'mariposa@example.com',
    avatar: null,
    exactPublicLocation: false,
  },
  { id: userId(4), username: 'tom.tabby', email: 'tom@example.com', avatar: 43, exactPublicLocation: false },
  {
    id: userId(5),
    username: 'whisker_watch',
    email: 'whiskers@example.com',
    avatar: 44,
    exactPublicLocation: false,
  },
  {
    id: userId(6),
    username: 'sol_y_gatos',
    email: 'sol@example.com',
    avatar: null,
    exactPublicLocation: false,
  },
];

/** Spots around southern Spain (the map's default centre is 37.0, -4.5). */
const PLACES: Record<string, [number, number]> = {
  malaga: [36.7213, -4.4214],
  antequera: [37.0194, -4.5612],
  granada: [37.1773, -3.5986],
  ronda: [36.7462, -5.1612],
  cordoba: [37.8882, -4.7794],
  sevilla: [37.3891, -5.9845],
  nerja: [36.7581, -3.8743],
  loja: [37.1689, -4.1513],
  lucena: [37.4088, -4.4852],
  archidona: [37.0964, -4.3887],
  frigiliana: [36.7911, -3.8958],
  osuna: [37.2373, -5.1031],
  estepa: [37.2925, -4.8786],
  marbella: [36.5101, -4.8825],
  alhama: [37.0069, -3.9892],
  torrox: [36.7586, -3.9526],
};

export interface SamplePost {
  id: string;
  author: number;
  catName: string | null;
  caption: string;
  /** Place name (a small offset is added per post), or null for a photo without GPS. */
  place: string | null;
  showLocation: boolean;
  hoursAgo: number;
}

const raw: [number, string | null, string, string | null, boolean?][] = [
  [1, 'Luna', 'Luna guarding the flower pots again. Nobody gets past her.', 'malaga'],
  [2, 'Pimienta', 'Found this little pepper napping on the warm tiles.', 'antequera'],
  [3, null, 'Who is this handsome stranger? Seen him three mornings in a row.', 'granada'],
  [4, 'Tom', 'Tom has opinions about the postman.', 'ronda'],
  [5, 'Sombra', 'Sombra only comes out after sunset. Classic.', 'cordoba'],
  [6, 'Canela', 'Canela and the golden hour. She knows her angles.', 'sevilla'],
  [1, 'Luna', 'Loaf mode: activated.', 'malaga', false],
  [2, null, 'A very serious cat inspecting the street market.', 'nerja'],
  [3, 'Mishi', 'Mishi says hello from the window sill.', null],
  [4, 'Bigotes', 'Bigotes, the mayor of this plaza.', 'loja'],
  [5, 'Nieve', 'Snow-white Nieve in the garden. Not a single leaf on her.', 'lucena'],
  [6, null, 'Tiny paws, big plans.', 'archidona'],
  [1, 'Garfield', 'He is not orange for nothing: he ate my churro.', 'frigiliana'],
  [2, 'Chispa', 'Chispa sprinting after a butterfly. Blurry but proud.', 'osuna'],
  [3, null, 'Sleeping spot of the week: the bakery doorstep.', 'estepa'],
  [4, 'Tom', 'Tom again. He follows me to work now.', 'ronda'],
  [5, 'Miel', 'Miel the honey-coloured sunbather.', 'marbella'],
  [6, 'Pelusa', 'Pelusa has claimed the new doormat.', null],
  [1, 'Luna', 'Luna met a pigeon. The pigeon left.', 'malaga'],
  [2, 'Rayo', 'Rayo on patrol at dusk.', 'alhama'],
  [3, 'Coco', 'Coco, queen of the rooftop.', 'torrox', false],
  [4, null, 'Three cats, one bench, zero space for me.', 'granada'],
  [5, 'Sombra', 'Sombra caught in the moonlight.', 'cordoba'],
  [6, 'Canela', 'Canela stretching like a yoga teacher.', 'sevilla'],
  [1, 'Nube', 'Nube is fluffier than the clouds today.', 'antequera'],
  [2, 'Pimienta', 'Pimienta found the only shade in town.', null],
  [3, 'Mishi', 'Mishi demands breakfast. Now.', 'nerja'],
  [4, 'Bigotes', 'Bigotes inspecting the geraniums.', 'loja'],
  [5, null, 'A shy one behind the blue shutters.', 'frigiliana'],
  [6, 'Pelusa', 'Pelusa mid-yawn. Terrifying.', null],
  [1, 'Luna', 'Sunday loaf by the wall.', 'malaga'],
  [2, 'Chispa', 'Chispa and her new collar.', 'osuna'],
  [3, 'Coco', 'Coco watching the swallows.', 'archidona'],
  [4, 'Tom', 'Tom asleep on the car bonnet. Of course.', null],
  [5, 'Miel', 'Miel, golden as ever.', 'marbella'],
  [6, null, 'The street cats of the old town, part one.', 'estepa'],
];

export const SAMPLE_POSTS: readonly SamplePost[] = raw.map(
  ([author, catName, caption, place, showLocation], i) => ({
    id: samplePostId(i + 1),
    author,
    catName,
    caption,
    place,
    showLocation: place !== null && showLocation !== false,
    // Newest first in the order above, spread over about two weeks.
    hoursAgo: 2 + i * 9 + (i % 4) * 2,
  }),
);

/** The place's coordinates plus a fixed offset of up to ~1.5 km, so posts of one town do not stack. */
export function samplePostCoordinates(
  post: SamplePost,
  index: number,
): { latitude: number; longitude: number } | null {
  if (!post.place) return null;
  const [lat, lng] = PLACES[post.place]!;
  const angle = index * 2.399963; // golden angle: well spread offsets
  const radius = 0.004 + (index % 5) * 0.0025;
  return {
    latitude: Math.round((lat + Math.sin(angle) * radius) * 1e6) / 1e6,
    longitude: Math.round((lng + Math.cos(angle) * radius) * 1e6) / 1e6,
  };
}

const COMMENT_TEXTS = [
  'What a cutie!',
  'I know this one, she lives by the fountain.',
  'Those eyes!',
  'Give him a scratch behind the ears from me.',
  'Best loaf I have seen all week.',
  'Is that the same cat from last Tuesday?',
  'Adorable. The lighting is perfect.',
  'He looks like he owns the street.',
  'Pure attitude.',
  'Aww, I want to pet her.',
  'The collar suits her!',
  'This made my morning.',
];

export interface SampleComment {
  id: string;
  postIndex: number;
  author: number;
  body: string;
  minutesAfter: number;
}

/** One to three comments on most posts, never by the post's own author. */
export const SAMPLE_COMMENTS: readonly SampleComment[] = SAMPLE_POSTS.flatMap((post, i) => {
  const count = i % 5 === 4 ? 0 : 1 + (i % 3);
  return Array.from({ length: count }, (_, k) => {
    const author = ((post.author + k * 2) % 6) + 1;
    return {
      id: sampleCommentId(i * 3 + k + 1),
      postIndex: i,
      author: author === post.author ? (author % 6) + 1 : author,
      body: COMMENT_TEXTS[(i * 5 + k * 7) % COMMENT_TEXTS.length]!,
      minutesAfter: 15 + k * 40 + (i % 7) * 11,
    };
  });
});

/** Likes: a deterministic, varied spread (0 to 5 per post). */
export function sampleLikers(postIndex: number, author: number): number[] {
  return [1, 2, 3, 4, 5, 6].filter((u) => u !== author && (postIndex * 7 + u * 3) % 5 < 3 - (postIndex % 3));
}

/**
 * A friend group the demo account belongs to, so visitors see what groups look like: luna_lover owns
 * it, two neighbours and the demo account are members, tom.tabby waits for an answer, and the members'
 * pictures are shared with it (some with the public location switch off: members still see those on
 * the group's map, exactly, as the Groups screen's notice says).
 */
export const SAMPLE_GROUP = {
  id: '5eed0000-0000-4000-8000-00000000d001',
  name: 'Calle Luna Cats',
  owner: 1,
  members: [2, 3],
  pending: [4],
} as const;

export const SAMPLE_GROUP_POSTS: readonly SamplePost[] = SAMPLE_POSTS.filter(
  (p) => p.author === SAMPLE_GROUP.owner || (SAMPLE_GROUP.members as readonly number[]).includes(p.author),
);

/** A cat of the sample neighbourhood (issue 26): its sightings are the sample posts with its name. */
export interface SampleCat {
  id: string;
  name: string;
  /** The sample user who made the profile and cares for the cat (the author of its sightings). */
  caretaker: number;
  description: string;
  coatColours: CoatColour[];
  earTipped: YesNoUnknown;
  neutered: YesNoUnknown;
  living: CatLiving;
  /** Sample users who follow the cat, besides its caretaker. */
  followers: number[];
}

/**
 * Every cat seen more than once in the sample posts gets a profile, so that a visitor finds cats with
 * a timeline and a map at once. The rest stay names on single photos, as most sightings start.
 */
export const SAMPLE_CATS: readonly SampleCat[] = (
  [
    [
      'Luna',
      'A grey tabby who rules the flower pots of calle Larios. Loves chin scratches, hates pigeons.',
      ['grey', 'tabby'],
      'no',
      'yes',
      'household',
      [2, 3],
    ],
    [
      'Tom',
      'Black and white, follows people to work. Fed by the bakery every morning.',
      ['black', 'white', 'bicolour'],
      'yes',
      'yes',
      'community',
      [1, 5],
    ],
    [
      'Sombra',
      'Jet black, only out after sunset. Keeps her distance.',
      ['black'],
      'yes',
      'yes',
      'community',
      [6],
    ],
    [
      'Canela',
      'Ginger and cream, poses for every camera.',
      ['ginger', 'cream'],
      'unknown',
      'unknown',
      'community',
      [1],
    ],
    [
      'Pimienta',
      'Small and spotted, sleeps in the shade of the market stalls.',
      ['tortoiseshell'],
      'yes',
      'yes',
      'community',
      [],
    ],
    [
      'Mishi',
      'Sits in the same window every morning and asks for breakfast.',
      ['white', 'grey'],
      'no',
      'yes',
      'household',
      [4],
    ],
    [
      'Bigotes',
      'Long white whiskers; the mayor of the plaza.',
      ['brown', 'tabby'],
      'yes',
      'yes',
      'community',
      [2],
    ],
    [
      'Chispa',
      'Fast, young and curious. Wears a red collar now.',
      ['calico'],
      'no',
      'unknown',
      'household',
      [],
    ],
    [
      'Coco',
      'Lives on the rooftops; comes down for the swallows.',
      ['cream', 'pointed'],
      'unknown',
      'unknown',
      'unknown',
      [6],
    ],
    ['Miel', 'Honey-coloured sunbather, very friendly.', ['ginger'], 'yes', 'yes', 'community', [3]],
    ['Pelusa', 'Fluffy and loud. Claims every new doormat.', ['white'], 'unknown', 'no', 'household', []],
  ] as const
).map(([name, description, coatColours, earTipped, neutered, living, followers], i) => ({
  id: sampleCatId(i + 1),
  name,
  caretaker: SAMPLE_POSTS.find((p) => p.catName === name)!.author,
  description,
  coatColours: [...coatColours],
  earTipped,
  neutered,
  living,
  followers: [...followers],
}));

/** The sample posts that are sightings of the cat: the posts of its caretaker with its name. */
export const sampleSightings = (cat: SampleCat): SamplePost[] =>
  SAMPLE_POSTS.filter((p) => p.catName === cat.name && p.author === cat.caretaker);

/**
 * A missing cat in the sample neighbourhood (issue 26), so that visitors meet an alert at once: Luna,
 * last seen near calle Larios two hours before the first start. The demo account and two neighbours
 * have home areas in Málaga, so the demo sees the feed's banner and Explore's pin and was told; a
 * neighbour has answered 'I saw this cat'. The alert stays up on a long-lived instance: the seed renews
 * it at every start and once a day while it is open (sample-missing.ts), as a caretaker would; once a
 * sample caretaker marks it found, it stays found.
 */
export const SAMPLE_MISSING = {
  id: '5eed0000-0000-4000-8000-00000000e001',
  catName: 'Luna',
  hoursAgo: 2,
  lastSeen: { latitude: 36.720512, longitude: -4.419876 },
  note: 'Grey tabby with a red collar and a bell. Very shy with strangers: please do not try to pick her up.',
  contact: 'keep_distance' as const,
  /** Home areas (the app keeps their ~500 m cells): sample users by number, and the demo account. */
  homeAreas: {
    demo: { latitude: 36.7265, longitude: -4.4251 },
    users: [
      [2, { latitude: 36.7172, longitude: -4.4301 }],
      [3, { latitude: 36.7248, longitude: -4.4122 }],
    ] as const,
  },
  report: {
    id: '5eed0000-0000-4000-8000-00000000e101',
    author: 5,
    minutesAgo: 40,
    place: { latitude: 36.72281, longitude: -4.41602 },
    note: 'I think I saw her under the benches of the Plaza de la Merced, heading towards the Alcazaba.',
  },
} as const;

/**
 * Issue 27: the sample admin (development only: a production start never makes an account with a
 * published password an admin, even with SEED=sample). Logs in with SAMPLE_PASSWORD.
 */
export const SAMPLE_ADMIN_EMAIL = 'whiskers@example.com';

/**
 * One open report in the moderation queue: tom.tabby reports a post of gato_malaga's that, he says,
 * shows his door. Its snapshot is the post as reported, as the reports module stores it.
 */
export const SAMPLE_REPORT = {
  id: '5eed0000-0000-4000-8000-00000000e001',
  reporter: 4,
  postIndex: 19,
  reason: 'private_information',
  note: 'The photo shows my street and the number of my door.',
  hoursAgo: 3,
} as const;
