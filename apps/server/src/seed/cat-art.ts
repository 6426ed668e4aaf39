/**
 * Illustrated cats for the sample content and the test fixtures: an SVG scene (backdrop + cat) built
 * from a few options, rendered by sharp (librsvg). No text elements, so no fonts are needed.
 */

export type CatPose = 'sitting' | 'loaf' | 'sleeping' | 'walking';
export type CatPattern = 'solid' | 'tabby' | 'tuxedo' | 'calico' | 'pointed';
export type Backdrop = 'wall' | 'garden' | 'night' | 'sunset' | 'window' | 'street';

export interface CatArt {
  pose: CatPose;
  pattern: CatPattern;
  /** Main coat colour. */
  coat: string;
  /** Stripes, points or patches. */
  marking: string;
  eyes: string;
  backdrop: Backdrop;
  collar?: string | undefined;
}

export const COATS = [
  { coat: '#e8913a', marking: '#b8621c' }, // ginger
  { coat: '#3b3b45', marking: '#22222a' }, // black
  { coat: '#9aa3ad', marking: '#6d7580' }, // grey
  { coat: '#f3ead9', marking: '#8a6a4f' }, // cream (siamese points)
  { coat: '#c9a27a', marking: '#7d5a3a' }, // brown tabby
  { coat: '#fbfaf6', marking: '#e0a060' }, // white
] as const;
export const EYES = ['#7cc242', '#f2b632', '#5fb3e6', '#e4d23a', '#b98b2c'] as const;
export const COLLARS = ['#d7263d', '#2a9d8f', '#6a4c93', '#f4a261'] as const;

const backdrops: Record<Backdrop, string> = {
  wall: `
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7ec8f2"/><stop offset="1" stop-color="#d8f0ff"/></linearGradient>
    <rect width="1000" height="1000" fill="url(#sky)"/>
    <circle cx="830" cy="150" r="70" fill="#fff3b0"/>
    <rect y="330" width="1000" height="670" fill="#f7f1e6"/>
    <rect y="300" width="1000" height="50" fill="#c8553d"/>
    ${Array.from({ length: 21 }, (_, i) => `<path d="M${i * 50} 300 q25 -28 50 0" fill="#d9684f"/>`).join('')}
    <rect y="860" width="1000" height="140" fill="#d9cdb8"/>
    <rect x="70" y="650" width="120" height="110" rx="10" fill="#c0663f"/>
    <circle cx="100" cy="630" r="34" fill="#e63946"/><circle cx="160" cy="620" r="30" fill="#ff5d73"/>
    <circle cx="130" cy="590" r="28" fill="#e63946"/>
    <path d="M90 660 l-20 -50 M170 660 l20 -60" stroke="#2d6a4f" stroke-width="10"/>`,
  garden: `
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9ad8f7"/><stop offset="1" stop-color="#e8f8ff"/></linearGradient>
    <rect width="1000" height="1000" fill="url(#sky)"/>
    <ellipse cx="250" cy="620" rx="420" ry="200" fill="#8fcf6e"/>
    <ellipse cx="800" cy="640" rx="420" ry="220" fill="#7bbf5b"/>
    <rect y="720" width="1000" height="280" fill="#6aab4a"/>
    ${[120, 300, 690, 880, 520]
      .map(
        (x, i) =>
          `<g transform="translate(${x} ${800 + (i % 2) * 90})"><path d="M0 0 v-60" stroke="#2d6a4f" stroke-width="6"/>` +
          `${[0, 72, 144, 216, 288].map((a) => `<ellipse cx="0" cy="-78" rx="9" ry="18" transform="rotate(${a} 0 -60)" fill="${['#ffd166', '#ef476f', '#ffffff', '#c77dff', '#ffd166'][i]}"/>`).join('')}` +
          `<circle cx="0" cy="-60" r="9" fill="#f4a261"/></g>`,
      )
      .join('')}
    <ellipse cx="200" cy="140" rx="90" ry="34" fill="#fff"/><ellipse cx="260" cy="120" rx="70" ry="36" fill="#fff"/>`,
  night: `
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#141b41"/><stop offset="1" stop-color="#306bac"/></linearGradient>
    <rect width="1000" height="1000" fill="url(#sky)"/>
    <circle cx="780" cy="180" r="90" fill="#f6f1c7"/><circle cx="815" cy="160" r="80" fill="#1a2350"/>
    ${[
      [120, 120],
      [300, 80],
      [460, 200],
      [600, 110],
      [900, 320],
      [200, 300],
      [680, 330],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5" fill="#fffbe0"/>`)
      .join('')}
    <path d="M0 760 L180 620 L360 760 Z" fill="#2b2d42"/><path d="M300 780 L560 600 L820 780 Z" fill="#23243a"/>
    <rect y="760" width="1000" height="240" fill="#8d5b4c"/>
    ${Array.from({ length: 11 }, (_, i) => `<path d="M${i * 100} 760 q50 40 100 0" fill="none" stroke="#6e4238" stroke-width="8"/>`).join('')}`,
  sunset: `
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff7e5f"/><stop offset="0.6" stop-color="#feb47b"/><stop offset="1" stop-color="#ffe3b3"/></linearGradient>
    <rect width="1000" height="1000" fill="url(#sky)"/>
    <circle cx="500" cy="560" r="170" fill="#ffd56b" opacity="0.9"/>
    <path d="M0 600 Q250 520 500 600 T1000 590 V1000 H0 Z" fill="#b5838d"/>
    <path d="M0 700 Q300 640 620 700 T1000 690 V1000 H0 Z" fill="#6d597a"/>
    <rect y="800" width="1000" height="200" fill="#d4a373"/>
    ${Array.from({ length: 11 }, (_, i) => `<rect x="${i * 100 - 10}" y="800" width="8" height="200" fill="#b08253"/>`).join('')}`,
  window: `
    <rect width="1000" height="1000" fill="#fdf0d5"/>
    <rect x="150" y="90" width="700" height="640" fill="#a8dadc"/>
    <rect x="150" y="90" width="700" height="640" fill="none" stroke="#1d3557" stroke-width="26"/>
    <path d="M500 90 V730 M150 410 H850" stroke="#1d3557" stroke-width="18"/>
    <rect x="30" y="90" width="120" height="640" fill="#457b9d"/><rect x="850" y="90" width="120" height="640" fill="#457b9d"/>
    ${Array.from({ length: 12 }, (_, i) => `<path d="M40 ${120 + i * 52} h100 M860 ${120 + i * 52} h100" stroke="#1d3557" stroke-width="6"/>`).join('')}
    <rect x="100" y="730" width="800" height="60" fill="#e9c46a"/>
    <rect y="790" width="1000" height="210" fill="#f1e3c3"/>
    <rect x="700" y="640" width="110" height="95" rx="8" fill="#e76f51"/>
    <circle cx="755" cy="615" r="45" fill="#52b788"/>`,
  street: `
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#bde0fe"/><stop offset="1" stop-color="#f1faff"/></linearGradient>
    <rect width="1000" height="1000" fill="url(#sky)"/>
    <rect x="0" y="180" width="330" height="620" fill="#f4d35e"/><rect x="330" y="120" width="360" height="680" fill="#fefae0"/>
    <rect x="690" y="220" width="310" height="580" fill="#ee964b"/>
    ${[
      [60, 260],
      [200, 260],
      [400, 200],
      [560, 200],
      [760, 300],
      [890, 300],
      [400, 420],
      [560, 420],
    ]
      .map(
        ([x, y]) =>
          `<rect x="${x}" y="${y}" width="80" height="120" rx="40" fill="#264653"/><rect x="${x! - 8}" y="${y! + 118}" width="96" height="12" fill="#2a9d8f"/>`,
      )
      .join('')}
    <rect y="800" width="1000" height="200" fill="#b7b7a4"/>
    ${Array.from({ length: 40 }, (_, i) => `<ellipse cx="${(i % 10) * 105 + (Math.floor(i / 10) % 2) * 50}" cy="${820 + Math.floor(i / 10) * 50}" rx="44" ry="18" fill="#a5a58d"/>`).join('')}`,
};

function face(art: CatArt, cx: number, cy: number, r: number, asleep: boolean): string {
  const pointed = art.pattern === 'pointed';
  const earColour = pointed ? art.marking : art.coat;
  const ear = (s: number) =>
    `<path d="M${cx + s * r * 0.92} ${cy - r * 0.35} L${cx + s * r * 0.78} ${cy - r * 1.25} L${cx + s * r * 0.15} ${cy - r * 0.85} Z" fill="${earColour}"/>` +
    `<path d="M${cx + s * r * 0.76} ${cy - r * 0.5} L${cx + s * r * 0.7} ${cy - r * 1.05} L${cx + s * r * 0.32} ${cy - r * 0.8} Z" fill="#f7a8b8"/>`;
  const eye = (s: number) => {
    const ex = cx + s * r * 0.38;
    const ey = cy - r * 0.08;
    if (asleep) {
      return `<path d="M${ex - r * 0.18} ${ey} q${r * 0.18} ${r * 0.16} ${r * 0.36} 0" fill="none" stroke="#2b2b2b" stroke-width="${r * 0.06}" stroke-linecap="round"/>`;
    }
    return (
      `<ellipse cx="${ex}" cy="${ey}" rx="${r * 0.2}" ry="${r * 0.24}" fill="${art.eyes}" stroke="#2b2b2b" stroke-width="${r * 0.025}"/>` +
      `<ellipse cx="${ex}" cy="${ey}" rx="${r * 0.07}" ry="${r * 0.19}" fill="#1b1b1b"/>` +
      `<circle cx="${ex + r * 0.06}" cy="${ey - r * 0.1}" r="${r * 0.055}" fill="#fff"/>`
    );
  };
  const tabbyBrow =
    art.pattern === 'tabby' || art.pattern === 'calico'
      ? [-0.22, 0, 0.22]
          .map(
            (dx) =>
              `<path d="M${cx + dx * r} ${cy - r * 0.95} v${r * 0.3}" stroke="${art.marking}" stroke-width="${r * 0.09}" stroke-linecap="round"/>`,
          )
          .join('')
      : '';
  const calicoPatch =
    art.pattern === 'calico'
      ? `<path d="M${cx - r} ${cy - r * 0.2} Q${cx - r * 0.6} ${cy - r * 1.1} ${cx - r * 0.05} ${cy - r * 0.9} Q${cx - r * 0.3} ${cy - r * 0.3} ${cx - r * 0.9} ${cy + r * 0.3} Z" fill="#e8913a"/>`
      : '';
  const mask = pointed
    ? `<ellipse cx="${cx}" cy="${cy + r * 0.25}" rx="${r * 0.5}" ry="${r * 0.45}" fill="${art.marking}" opacity="0.85"/>`
    : '';
  const muzzle =
    art.pattern === 'tuxedo' || art.pattern === 'calico'
      ? `<ellipse cx="${cx}" cy="${cy + r * 0.38}" rx="${r * 0.48}" ry="${r * 0.42}" fill="#fbfaf6"/>`
      : '';
  const whiskers = [-1, 1]
    .map((s) =>
      [-0.08, 0.06, 0.2]
        .map(
          (dy, i) =>
            `<path d="M${cx + s * r * 0.3} ${cy + r * 0.32} L${cx + s * r * 1.25} ${cy + r * (0.18 + dy + i * 0.04)}" stroke="${art.coat === '#3b3b45' ? '#d9d9d9' : '#4a4a4a'}" stroke-width="${r * 0.02}" stroke-linecap="round"/>`,
        )
        .join(''),
    )
    .join('');
  return (
    ear(-1) +
    ear(1) +
    `<ellipse cx="${cx}" cy="${cy}" rx="${r * 1.08}" ry="${r}" fill="${art.coat}"/>` +
    calicoPatch +
    mask +
    muzzle +
    tabbyBrow +
    `<circle cx="${cx - r * 0.62}" cy="${cy + r * 0.3}" r="${r * 0.16}" fill="#ff8fa3" opacity="0.45"/>` +
    `<circle cx="${cx + r * 0.62}" cy="${cy + r * 0.3}" r="${r * 0.16}" fill="#ff8fa3" opacity="0.45"/>` +
    eye(-1) +
    eye(1) +
    `<path d="M${cx - r * 0.09} ${cy + r * 0.2} h${r * 0.18} l-${r * 0.09} ${r * 0.11} Z" fill="#f48fb1"/>` +
    `<path d="M${cx} ${cy + r * 0.31} q-${r * 0.1} ${r * 0.16} -${r * 0.2} ${r * 0.05} M${cx} ${cy + r * 0.31} q${r * 0.1} ${r * 0.16} ${r * 0.2} ${r * 0.05}" fill="none" stroke="#4a4a4a" stroke-width="${r * 0.03}" stroke-linecap="round"/>` +
    whiskers
  );
}

function stripes(art: CatArt, cx: number, cy: number, rx: number, ry: number): string {
  if (art.pattern !== 'tabby') return '';
  return [-0.5, -0.15, 0.2, 0.55]
    .map(
      (dx) =>
        `<path d="M${cx + dx * rx} ${cy - ry * 0.95} q${rx * 0.12} ${ry * 0.4} 0 ${ry * 0.7}" fill="none" stroke="${art.marking}" stroke-width="${rx * 0.07}" stroke-linecap="round"/>`,
    )
    .join('');
}

function collar(art: CatArt, cx: number, cy: number, w: number): string {
  if (!art.collar) return '';
  return (
    `<path d="M${cx - w} ${cy} q${w} ${w * 0.35} ${w * 2} 0" fill="none" stroke="${art.collar}" stroke-width="${w * 0.16}" stroke-linecap="round"/>` +
    `<circle cx="${cx}" cy="${cy + w * 0.27}" r="${w * 0.14}" fill="#ffd60a" stroke="#b08900" stroke-width="3"/>`
  );
}

const tailColour = (art: CatArt) => (art.pattern === 'pointed' ? art.marking : art.coat);
const pawColour = (art: CatArt) =>
  art.pattern === 'tuxedo' ? '#fbfaf6' : art.pattern === 'pointed' ? art.marking : art.coat;
const bibColour = (art: CatArt) =>
  art.pattern === 'tuxedo' || art.pattern === 'calico'
    ? '#fbfaf6'
    : art.pattern === 'solid'
      ? art.coat
      : '#fff5e6';

function cat(art: CatArt): string {
  switch (art.pose) {
    case 'sitting':
      return (
        `<path d="M110 -50 C270 -40 270 -260 190 -320" fill="none" stroke="${tailColour(art)}" stroke-width="40" stroke-linecap="round"/>` +
        `<ellipse cx="0" cy="-175" rx="150" ry="180" fill="${art.coat}"/>` +
        stripes(art, 0, -175, 150, 180) +
        `<ellipse cx="0" cy="-215" rx="72" ry="115" fill="${bibColour(art)}" opacity="0.9"/>` +
        `<rect x="-85" y="-150" width="54" height="150" rx="27" fill="${art.coat}"/><rect x="31" y="-150" width="54" height="150" rx="27" fill="${art.coat}"/>` +
        `<ellipse cx="-58" cy="-10" rx="36" ry="20" fill="${pawColour(art)}"/><ellipse cx="58" cy="-10" rx="36" ry="20" fill="${pawColour(art)}"/>` +
        face(art, 0, -410, 120, false) +
        collar(art, 0, -300, 80)
      );
    case 'loaf':
      return (
        `<path d="M210 -40 C280 -20 200 30 40 10" fill="none" stroke="${tailColour(art)}" stroke-width="38" stroke-linecap="round"/>` +
        `<ellipse cx="0" cy="-130" rx="240" ry="135" fill="${art.coat}"/>` +
        stripes(art, 40, -140, 190, 120) +
        `<ellipse cx="-60" cy="-8" rx="44" ry="20" fill="${pawColour(art)}"/><ellipse cx="40" cy="-8" rx="44" ry="20" fill="${pawColour(art)}"/>` +
        face(art, -40, -270, 115, false) +
        collar(art, -40, -170, 75)
      );
    case 'sleeping': {
      const z = (x: number, y: number, s: number) =>
        `<path d="M${x} ${y} h${s} l-${s} ${s} h${s}" fill="none" stroke="#ffffff" stroke-width="${s * 0.18}" stroke-linecap="round" stroke-linejoin="round" opacity="0.9"/>`;
      return (
        `<ellipse cx="20" cy="-120" rx="240" ry="125" fill="${art.coat}"/>` +
        stripes(art, 60, -130, 170, 110) +
        `<path d="M230 -70 C260 20 -60 40 -210 -10" fill="none" stroke="${tailColour(art)}" stroke-width="44" stroke-linecap="round"/>` +
        face(art, -150, -150, 105, true) +
        z(-10, -330, 36) +
        z(50, -410, 48) +
        z(130, -500, 60)
      );
    }
    case 'walking':
      return (
        `<path d="M-190 -250 C-300 -300 -280 -460 -220 -500" fill="none" stroke="${tailColour(art)}" stroke-width="36" stroke-linecap="round"/>` +
        [-150, -80, 90, 160]
          .map(
            (x) =>
              `<rect x="${x - 25}" y="-250" width="50" height="250" rx="25" fill="${art.coat}"/><ellipse cx="${x}" cy="-8" rx="32" ry="16" fill="${pawColour(art)}"/>`,
          )
          .join('') +
        `<ellipse cx="0" cy="-270" rx="220" ry="105" fill="${art.coat}"/>` +
        stripes(art, -20, -280, 180, 100) +
        face(art, 190, -380, 105, false) +
        collar(art, 190, -290, 70)
      );
  }
}

/** An SVG scene of size x size pixels. */
export function catSvg(art: CatArt, size = 1000): string {
  const scale = art.pose === 'walking' ? 1.2 : art.pose === 'sleeping' ? 1.35 : 1.3;
  const baseY = art.backdrop === 'window' ? 770 : 900;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1000 1000">` +
    `<defs/>${backdrops[art.backdrop]}` +
    `<ellipse cx="500" cy="${baseY}" rx="330" ry="34" fill="#000" opacity="0.12"/>` +
    `<g transform="translate(500 ${baseY}) scale(${scale})">${cat(art)}</g></svg>`
  );
}

/** A portrait (head only) for profile pictures. */
export function catFaceSvg(art: CatArt, size = 600): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1000 1000">` +
    `<rect width="1000" height="1000" fill="${art.collar ?? '#a8dadc'}" opacity="0.35"/>` +
    `<rect width="1000" height="1000" fill="#fdf6ec" opacity="0.6"/>` +
    face({ ...art, pattern: art.pattern }, 500, 560, 330, false) +
    `</svg>`
  );
}

/** Deterministic pseudo-random numbers (mulberry32), so sample images are the same on every start. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const POSES: readonly CatPose[] = ['sitting', 'loaf', 'sleeping', 'walking'];
export const PATTERNS: readonly CatPattern[] = ['solid', 'tabby', 'tuxedo', 'calico', 'pointed'];
export const BACKDROPS: readonly Backdrop[] = ['wall', 'garden', 'night', 'sunset', 'window', 'street'];

/** A varied cat for index i (deterministic). */
export function catArtFor(i: number): CatArt {
  const rnd = seededRandom(1000 + i * 7919);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const pattern = PATTERNS[i % PATTERNS.length]!;
  const palette = pattern === 'pointed' ? { coat: '#f3ead9', marking: '#5b4636' } : pick(COATS);
  return {
    pose: POSES[(i * 3 + Math.floor(i / 4)) % POSES.length]!,
    pattern,
    coat: pattern === 'calico' ? '#fbfaf6' : palette.coat,
    marking: palette.marking,
    eyes: pattern === 'pointed' ? '#5fb3e6' : pick(EYES),
    backdrop: BACKDROPS[(i * 5 + 1) % BACKDROPS.length]!,
    collar: rnd() < 0.45 ? pick(COLLARS) : undefined,
  };
}

/** EXIF GPS rational triplet ("deg/1 min/1 sec*10000/10000") as libvips expects it. */
export function exifDms(value: number): string {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutesFloat = (abs - degrees) * 60;
  const minutes = Math.floor(minutesFloat);
  const seconds = Math.round((minutesFloat - minutes) * 60 * 10000);
  return `${degrees}/1 ${minutes}/1 ${seconds}/10000`;
}

/** The EXIF a phone writes, for sharp's withExif: camera, time and (optionally) GPS. */
export function phoneExif(opts: {
  latitude?: number | undefined;
  longitude?: number | undefined;
  takenAt: Date;
}): Record<string, Record<string, string>> {
  const stamp = opts.takenAt.toISOString().slice(0, 19).replace('T', ' ').replaceAll('-', ':');
  const exif: Record<string, Record<string, string>> = {
    IFD0: { Make: 'Neighbourhood Cats', Model: 'Sketchbook Phone', DateTime: stamp, Software: 'cat-art' },
    IFD2: { DateTimeOriginal: stamp },
  };
  if (opts.latitude !== undefined && opts.longitude !== undefined) {
    exif.IFD3 = {
      GPSLatitudeRef: opts.latitude >= 0 ? 'N' : 'S',
      GPSLatitude: exifDms(opts.latitude),
      GPSLongitudeRef: opts.longitude >= 0 ? 'E' : 'W',
      GPSLongitude: exifDms(opts.longitude),
    };
  }
  return exif;
}
